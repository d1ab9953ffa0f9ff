/**
 * Jira Cloud's REST API v2, as far as n8n's Jira Software node (Issue → Create) uses it: the issue
 * types (`GET /rest/api/2/issuetype`, which the node reads to refuse a sub-task without a parent) and
 * `POST /rest/api/2/issue`, checked as Atlassian's reference documents the create-issue body
 * (developer.atlassian.com/cloud/jira/platform/rest/v2/api-group-issues/#api-rest-api-2-issue-post):
 * `fields.project` and `fields.issuetype` by id or key/name, `summary` a single line of at most 255
 * characters, `description` text, `labels` strings without spaces, `priority` by id; a field the
 * create screen lacks is a 400. Issue → Get Many (the playbook's search for an event's issue) is
 * `POST /rest/api/2/search/jql` (Jira Cloud's enhanced search, api-group-issue-search
 * /#api-rest-api-2-search-jql-post): `jql` (here `labels in ("a", "b")`, the only clause the
 * stand-in reads), `fields` a list, `maxResults`, and `nextPageToken` to go on; it answers
 * `{ issues, isLast }`. Basic authentication: the e-mail address and API token of the credential.
 */
import type { ToolReply, ToolRequest, ToolStandIn } from './http';

export const JIRA_EMAIL = 'flare-bot@acme.example';
/** The API token of the stand-in's credential (a placeholder, built from parts: no real token). */
export const JIRA_API_TOKEN = ['ATATT3x', 'FAKE', 'jira', 'token0001'].join('-');

/** The project and issue types the stand-in knows. */
export const JIRA_PROJECT = { id: '10000', key: 'SEC', name: 'Security Operations' };
export const JIRA_ISSUE_TYPES = [
	{ id: '10001', name: 'Task', subtask: false },
	{ id: '10002', name: 'Sub-task', subtask: true },
	{ id: '10003', name: 'Incident', subtask: false },
];
/** Jira's default priorities: 1 Highest … 5 Lowest. */
export const JIRA_PRIORITIES = ['1', '2', '3', '4', '5'];

/** The fields the project's create screen has. */
const CREATE_SCREEN = [
	'project',
	'issuetype',
	'summary',
	'description',
	'labels',
	'priority',
	'assignee',
	'reporter',
	'components',
	'parent',
];

export interface JiraIssue {
	id: string;
	key: string;
	fields: Record<string, unknown>;
}

export class JiraStandIn implements ToolStandIn {
	readonly tool = 'jira';
	readonly issues: JiraIssue[] = [];

	handle(request: ToolRequest): ToolReply {
		const expected = `Basic ${Buffer.from(`${JIRA_EMAIL}:${JIRA_API_TOKEN}`).toString('base64')}`;
		if (request.headers.authorization !== expected) {
			return {
				status: 401,
				body: {
					errorMessages: ['Client must be authenticated to access this resource.'],
					errors: {},
				},
				problem: 'no Basic authentication with the e-mail address and API token of the credential',
			};
		}
		if (request.method === 'GET' && request.path === '/rest/api/2/issuetype') {
			return { status: 200, body: JIRA_ISSUE_TYPES };
		}
		if (request.method === 'POST' && request.path === '/rest/api/2/issue')
			return this.create(request);
		if (request.method === 'POST' && request.path === '/rest/api/2/search/jql')
			return this.search(request);
		return {
			status: 404,
			body: { errorMessages: [`No route for ${request.method} ${request.path}`], errors: {} },
			problem: `${request.method} ${request.path} is not a call of the create-issue playbook`,
		};
	}

	private create(request: ToolRequest): ToolReply {
		const fields = (request.json as { fields?: Record<string, unknown> } | undefined)?.fields;
		const errors: Record<string, string> = {};
		if (!fields || typeof fields !== 'object') {
			return this.invalid({ fields: 'The request body has no fields object.' });
		}
		for (const name of Object.keys(fields)) {
			if (!CREATE_SCREEN.includes(name)) {
				errors[name] =
					`Field '${name}' cannot be set. It is not on the appropriate screen, or unknown.`;
			}
		}
		const project = fields.project as { id?: string; key?: string } | undefined;
		if (project?.id !== JIRA_PROJECT.id && project?.key !== JIRA_PROJECT.key) {
			errors.project = 'valid project is required';
		}
		const type = fields.issuetype as { id?: string; name?: string } | undefined;
		const issueType = JIRA_ISSUE_TYPES.find(
			(candidate) => candidate.id === type?.id || candidate.name === type?.name,
		);
		if (!issueType) errors.issuetype = 'valid issue type is required';
		else if (issueType.subtask && !fields.parent)
			errors.parent = 'Parent is required for a sub-task.';
		const summary = fields.summary;
		if (typeof summary !== 'string' || summary.trim() === '')
			errors.summary = 'You must specify a summary of the issue.';
		else if (summary.length > 255) errors.summary = 'Summary must be less than 255 characters.';
		else if (/[\r\n]/.test(summary))
			errors.summary = 'The summary is invalid because it contains newline characters.';
		if (fields.description !== undefined && typeof fields.description !== 'string') {
			errors.description = 'Operation value must be a string';
		}
		if (fields.labels !== undefined) {
			const labels = fields.labels;
			if (
				!Array.isArray(labels) ||
				labels.some((label) => typeof label !== 'string' || label === '')
			) {
				errors.labels = 'Labels must be a list of strings.';
			} else {
				const spaced = labels.find((label) => /\s/.test(label as string));
				if (spaced !== undefined)
					errors.labels = `The label '${String(spaced)}' contains spaces which is invalid.`;
			}
		}
		if (fields.priority !== undefined) {
			const id = (fields.priority as { id?: unknown }).id;
			if (!JIRA_PRIORITIES.includes(String(id)))
				errors.priority = `The priority selected is invalid.`;
		}
		if (Object.keys(errors).length > 0) return this.invalid(errors);
		const id = String(10100 + this.issues.length);
		const key = `${JIRA_PROJECT.key}-${this.issues.length + 1}`;
		this.issues.push({ id, key, fields });
		return { status: 201, body: { id, key, self: `${request.base}/rest/api/2/issue/${id}` } };
	}

	/** The issues with one of the labels of `labels in ("…", …)`, with the fields asked for. */
	private search(request: ToolRequest): ToolReply {
		const body = request.json as
			| { jql?: unknown; fields?: unknown; maxResults?: unknown; nextPageToken?: unknown }
			| undefined;
		const jql = typeof body?.jql === 'string' ? body.jql : '';
		const clause = /^labels in \(((?:"[^"\\]*"(?:, )?)+)\)$/.exec(jql);
		const problems = [
			!clause && `a JQL query the stand-in does not read: ${jql.slice(0, 200)}`,
			!Array.isArray(body?.fields) && 'fields is not a list',
			typeof body?.maxResults !== 'number' && 'no maxResults',
			body?.nextPageToken !== undefined && 'a nextPageToken the stand-in never gave',
		].filter(Boolean);
		if (!clause || problems.length > 0) {
			return {
				status: 400,
				body: { errorMessages: [`Error in the JQL Query: ${jql}`], errors: {} },
				problem: `not a search the stand-in takes: ${problems.join('; ')}`,
			};
		}
		const wanted = new Set([...clause[1].matchAll(/"([^"]*)"/g)].map((match) => match[1]));
		const fields = body!.fields as string[];
		const issues = this.issues
			.filter((issue) => ((issue.fields.labels as string[] | undefined) ?? []).some((label) => wanted.has(label)))
			.map((issue) => ({
				id: issue.id,
				key: issue.key,
				fields: Object.fromEntries(fields.map((name) => [name, issue.fields[name] ?? null])),
			}));
		return { status: 200, body: { issues, isLast: true } };
	}

	private invalid(errors: Record<string, string>): ToolReply {
		return {
			status: 400,
			body: { errorMessages: [], errors },
			problem: `not a valid create-issue body: ${JSON.stringify(errors)}`,
		};
	}
}
