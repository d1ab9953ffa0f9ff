import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentials,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, isExpression, sleep } from 'n8n-workflow';
import { Credentials } from 'n8n-core';

import { registerSecret } from './collect';

export interface StoredCredential {
	id: string;
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

/**
 * The credentials database of the harness: one record per credential id, shared by every execution
 * of a test, as n8n's `credentials_entity` table is shared by every execution of an instance.
 */
export class CredentialStore {
	private readonly records = new Map<string, StoredCredential>();

	/** Every write of a refreshed token, in order (the persisted value itself stays inside the store). */
	readonly updates: Array<{ id: string; keys: string[] }> = [];

	put(record: StoredCredential): void {
		this.records.set(record.id, { ...record, data: { ...record.data } });
	}

	get(id: string): StoredCredential {
		const record = this.records.get(id);
		if (!record) throw new Error(`No credential with id ${id} in the harness store`);
		return { ...record, data: { ...record.data } };
	}

	update(id: string, data: ICredentialDataDecryptedObject): void {
		registerSecret(data.accessToken);
		registerSecret(data.apiKey);
		const record = this.get(id);
		this.records.set(id, { ...record, data: { ...data } });
		this.updates.push({ id, keys: Object.keys(data) });
	}
}

export interface CredentialTypeRegistry {
	getByName(name: string): ICredentialType;
}

/**
 * Reproduces n8n's own CredentialsHelper (packages/cli/src/credentials-helper.ts) for the parts a
 * node touches: defaults applied on read, generic `authenticate` expressions, and `preAuthentication`
 * with its hidden expirable field, forced refresh after 401, credential-test detection and the
 * refreshed token persisted for later executions.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly store: CredentialStore,
		private readonly credentialTypes: CredentialTypeRegistry,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.credentialTypes.getByName(type).properties;
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		const record = this.store.get(String(nodeCredentials.id));
		const credentials = new Credentials({ id: record.id, name: record.name }, type);
		credentials.setData(record.data);
		return credentials;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const record = this.store.get(String(nodeCredentials.id));
		const withDefaults = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			record.data as never,
			true,
			false,
			null,
			null,
		);
		return { ...(withDefaults as ICredentialDataDecryptedObject) };
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		_type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.store.update(String(nodeCredentials.id), data);
	}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	/**
	 * How long n8n takes, before a request's `authenticate`, to hand it to its HTTP client (a test may
	 * make some requests slow, as a loaded machine does).
	 */
	handOverDelayMs: () => number = () => 0;

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const delayMs = this.handOverDelayMs();
		if (delayMs > 0) await sleep(delayMs);
		const { authenticate } = this.credentialTypes.getByName(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic' && workflow && node) {
			const resolve = (value: string) =>
				isExpression(value)
					? String(
							workflow.expression.getSimpleParameterValue(
								node,
								value,
								'internal',
								{ $credentials: credentials },
								undefined,
								'',
							) ?? '',
						)
					: value;
			for (const [target, entries] of Object.entries(authenticate.properties)) {
				const options = requestOptions as unknown as Record<string, Record<string, string>>;
				options[target] = options[target] ?? {};
				for (const [key, value] of Object.entries(entries as Record<string, string>)) {
					options[target][resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirable = credentialType.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (!expirable || typeof credentialType.preAuthentication !== 'function') return undefined;

		const isCredentialTest = node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';
		if (credentials[expirable.name] !== '' && !credentialsExpired && !isCredentialTest) {
			return undefined;
		}

		const output = await credentialType.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;

		const nodeCredentials = node.credentials?.[credentialType.name];
		if (nodeCredentials) {
			const stored = this.store.get(String(nodeCredentials.id)).data;
			this.store.update(String(nodeCredentials.id), { ...stored, ...(output as ICredentialDataDecryptedObject) });
			return Object.assign(credentials, output);
		}
		return undefined;
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const { preAuthentication } = this.credentialTypes.getByName(typeName);
		return typeof preAuthentication === 'function'
			? ((await preAuthentication.call(helpers, credentials)) as ICredentialDataDecryptedObject)
			: undefined;
	}
}
