/**
 * Local stand-ins of the tools the playbooks act on, for the end-to-end suite and the sandbox: Jira
 * Software Cloud and Okta behind their credential's own base URL, Slack and Microsoft Graph (Entra
 * ID) behind an HTTPS proxy with a throwaway CA, a mail server for Send Email, and an
 * OpenAI-compatible model for the AI triage playbook. Each checks what it receives as the tool's
 * public API documents it, answers as the tool does and records it; `credentials()` are the
 * credentials that point n8n at them, `n8nEnv()` the environment only the test's n8n gets (the proxy
 * and the CA it trusts).
 *
 * How n8n reaches a tool without a base URL in its credential (CONTRIBUTING.md, "Stand-ins of the
 * tools the playbooks act on"): the HTTP helpers of n8n-core route each request through the proxy
 * that HTTPS_PROXY names unless NO_PROXY matches (proxy-from-env), and Node trusts the CA that
 * NODE_EXTRA_CA_CERTS adds, since n8n's agents set no `ca` of their own.
 */
import { scanText, secretPatterns, PLANTED_PATTERN, type SecretHit } from '../../reliability/secret-scan';
import { path } from '../../support/node';
import { FAKE_MODEL_API_KEY, FakeModel } from '../fake-model';
import { type CredentialToImport, freePort } from '../n8n';
import { makeTestAuthority } from './ca';
import { elsewhereOf } from './directory';
import { EntraStandIn, GRAPH_ACCESS_TOKEN } from './entra';
import { ElsewhereStandIn, LocalToolServer, type Received, ReceivedLog, ToolProxy } from './http';
import { JIRA_API_TOKEN, JIRA_EMAIL, JiraStandIn } from './jira';
import { OKTA_API_TOKEN, OktaStandIn } from './okta';
import { receivedPage } from './page';
import { SLACK_BOT_TOKEN, SlackStandIn } from './slack';
import { SMTP_PASSWORD, SMTP_USER, SmtpStandIn } from './smtp';
import { TRIAGE_MODEL_CREDENTIAL, TRIAGE_MODEL_SCRIPT } from './triage-model';

export type { Received } from './http';

/** The credentials of the playbooks, as the workflow files name them (id and name). */
export const TOOL_CREDENTIALS = {
	jira: { id: 'jiraSoftwareCloudExample1', name: 'Jira SW Cloud account' },
	slack: { id: 'slackApiExample1', name: 'Slack account' },
	entra: { id: 'microsoftEntraExample1', name: 'Microsoft Entra ID account' },
	okta: { id: 'oktaApiExample1', name: 'Okta account' },
	smtp: { id: 'smtpExample1', name: 'SMTP account' },
	model: TRIAGE_MODEL_CREDENTIAL,
};

export interface StandInPorts {
	/** Jira, Okta and the page of what the tools received. */
	local: number;
	proxy: number;
	smtp: number;
	model: number;
}

/** The playbook whose Settings name the Okta domain (prepare). */
const OKTA_PLAYBOOK = 'playbooks/leaked-credentials-okta.json';

/** Hosts whose node writes its own address: the proxy answers for them. */
const PROXIED_HOSTS = ['slack.com', 'graph.microsoft.com'];

export class ToolStandIns {
	readonly log = new ReceivedLog();
	readonly jira = new JiraStandIn();
	readonly slack = new SlackStandIn();
	readonly entra = new EntraStandIn();
	readonly okta = new OktaStandIn();
	readonly smtp = new SmtpStandIn(this.log);
	private readonly local = new LocalToolServer(
		[this.jira, this.okta, new ElsewhereStandIn()],
		this.log,
		(page) => this.page(page),
	);
	private proxy!: ToolProxy;
	private caFile = '';
	model!: FakeModel;
	/** Their folder: the CA, and the workflows prepared for them (suite.ts readWorkflow). */
	folder = '';

	/**
	 * Starts every stand-in; the CA goes to `folder` (emptied first). `ports` are those to take when
	 * free (the sandbox keeps its credentials from one start to the next); any free port otherwise.
	 */
	static async start(folder: string, ports: Partial<StandInPorts> = {}): Promise<ToolStandIns> {
		const tools = new ToolStandIns();
		tools.folder = folder;
		const authority = makeTestAuthority(path.join(folder, 'ca'), PROXIED_HOSTS);
		tools.caFile = authority.caFile;
		tools.proxy = new ToolProxy(
			{ 'slack.com': tools.slack, 'graph.microsoft.com': tools.entra },
			tools.log,
			authority,
		);
		tools.model = await FakeModel.start(TRIAGE_MODEL_SCRIPT, await freePort(ports.model));
		await tools.local.start(await freePort(ports.local));
		tools.entra.elsewhere = elsewhereOf(tools.local.url);
		await tools.proxy.start(await freePort(ports.proxy));
		await tools.smtp.start(await freePort(ports.smtp));
		return tools;
	}

	/** The ports the stand-ins listen on (all on 127.0.0.1). */
	get ports(): StandInPorts {
		const port = (url: string) => Number(new URL(url).port);
		return {
			local: port(this.local.url),
			proxy: port(this.proxy.url),
			smtp: this.smtp.port,
			model: port(this.model.url),
		};
	}

	async stop(): Promise<void> {
		await Promise.all([this.local.stop(), this.proxy.stop(), this.smtp.stop(), this.model.stop()]);
	}

	/** The Okta domain of the stand-in (its credential's URL): what the Okta playbook's Settings take. */
	get oktaDomain(): string {
		return this.local.baseOf('okta');
	}

	/** Where a browser sees what every stand-in received (the sandbox prints it). */
	get pageUrl(): string {
		return `${this.local.url}/`;
	}

	/** The environment of the test's n8n: the proxy for the hosts above, and the CA it trusts. */
	n8nEnv(): Record<string, string> {
		return {
			HTTPS_PROXY: this.proxy.url,
			https_proxy: this.proxy.url,
			NO_PROXY: '127.0.0.1,localhost',
			no_proxy: '127.0.0.1,localhost',
			NODE_EXTRA_CA_CERTS: this.caFile,
		};
	}

	/** The tools' tokens, keys and passwords: the secret scan looks for them in all n8n left. */
	secrets(): string[] {
		return [
			JIRA_API_TOKEN,
			SLACK_BOT_TOKEN,
			GRAPH_ACCESS_TOKEN,
			OKTA_API_TOKEN,
			SMTP_PASSWORD,
			FAKE_MODEL_API_KEY,
		];
	}

	credentials(): CredentialToImport[] {
		const { jira, slack, entra, okta, smtp, model } = TOOL_CREDENTIALS;
		return [
			{
				...jira,
				type: 'jiraSoftwareCloudApi',
				data: { email: JIRA_EMAIL, apiToken: JIRA_API_TOKEN, domain: this.local.baseOf('jira') },
			},
			{ ...slack, type: 'slackApi', data: { accessToken: SLACK_BOT_TOKEN } },
			{
				...entra,
				type: 'microsoftEntraOAuth2Api',
				data: {
					clientId: '00000000-0000-4000-8000-0000000e2e00',
					clientSecret: ['entra', 'client', 'secret', 'standin'].join('~'),
					oauthTokenData: {
						token_type: 'Bearer',
						access_token: GRAPH_ACCESS_TOKEN,
						scope: 'User.ReadWrite.All',
					},
				},
			},
			{
				...okta,
				type: 'oktaApi',
				data: { url: this.local.baseOf('okta'), accessToken: OKTA_API_TOKEN },
			},
			{
				...smtp,
				type: 'smtp',
				data: {
					user: SMTP_USER,
					password: SMTP_PASSWORD,
					host: '127.0.0.1',
					port: this.smtp.port,
					secure: false,
					disableStartTls: true,
				},
			},
			{ ...model, type: 'openAiApi', data: { apiKey: FAKE_MODEL_API_KEY, url: this.model.url } },
		];
	}

	/** The employees' domain a playbook's Flare Trigger watches, where it is not the file's (watch). */
	private readonly watched = new Map<string, string>();

	/** The playbook's New leaked credential trigger watches `domain` (prepare). */
	watch(file: string, domain: string): void {
		this.watched.set(file, domain);
	}

	/**
	 * A workflow file's text as n8n gets it with the stand-ins: the Okta playbook's Settings name the
	 * stand-in's Okta domain, as a user names theirs; a playbook given another domain to watch
	 * (watch) watches it; every other file as it is.
	 */
	prepare(file: string, text: string): string {
		const domain = this.watched.get(file);
		if (file !== OKTA_PLAYBOOK && !domain) return text;
		const workflow = JSON.parse(text) as {
			nodes: Array<{
				name: string;
				parameters: {
					fqdn?: string;
					assignments?: { assignments: Array<{ name: string; value: unknown }> };
				};
			}>;
		};
		const node = (name: string) => workflow.nodes.find((candidate) => candidate.name === name);
		if (file === OKTA_PLAYBOOK) {
			const okta = node('Settings')?.parameters.assignments?.assignments.find(
				(assignment) => assignment.name === 'oktaDomain',
			);
			if (!okta) throw new Error(`${file}: no oktaDomain in its Settings node`);
			okta.value = this.oktaDomain;
		}
		if (domain) {
			const trigger = node('New leaked credential');
			if (trigger?.parameters.fqdn === undefined) throw new Error(`${file}: no New leaked credential trigger`);
			trigger.parameters.fqdn = domain;
		}
		return `${JSON.stringify(workflow, null, 2)}\n`;
	}

	/** What `tool` received since `mark` (a length of `log.entries`). */
	received(tool: string, mark = 0): Received[] {
		return this.log.of(tool, mark);
	}

	/**
	 * Planted leaked values (test/fake-flare/planted.ts), and Flare's API keys and tokens (never a
	 * tool's business: hostile review 49), in anything the tools received since `mark`.
	 */
	plantedSince(mark = 0): SecretHit[] {
		const patterns = [PLANTED_PATTERN, ...secretPatterns()];
		return this.log.entries
			.slice(mark)
			.flatMap((entry) => scanText(JSON.stringify(entry), patterns, entry.tool));
	}

	/** Requests refused as not documented, since `mark`. */
	problemsSince(mark = 0): string[] {
		return this.log.entries
			.slice(mark)
			.filter((entry) => entry.problem)
			.map((entry) => `${entry.tool} ${entry.method} ${entry.path}: ${entry.problem}`);
	}

	private page(route: string): { type: string; body: string } | undefined {
		if (route === '/received.json') {
			return {
				type: 'application/json',
				body: JSON.stringify(
					{
						received: this.log.entries,
						refused: this.log.refusedHosts,
						model: this.model.requests,
					},
					null,
					2,
				),
			};
		}
		if (route === '/')
			return {
				type: 'text/html; charset=utf-8',
				body: receivedPage(this.log, this.model.requests),
			};
		return undefined;
	}
}
