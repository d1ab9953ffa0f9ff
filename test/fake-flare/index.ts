/** The fake Flare API used by every test: server, dataset oracle, fault injection. */
export {
	DEFAULT_API_KEYS,
	FakeFlare,
	type FakeFlareOptions,
	type FakeState,
	type KeyRole,
	type LoggedRequest,
	QUOTA_SESSION_MS,
	type QuotaExhaustion,
	type QuotaReading,
	RESULTS_PER_UNIT,
	type ResolvedFakeFlareOptions,
	type StoredReportRequest,
	threatReportFor,
	type Tier,
} from './server';
export { Dataset, DEFAULT_LIST_SIZES, SCAN_CAP, type StoredAssignment } from './dataset';
export { Faults, type Fault, type FaultRule, type PagingFault } from './faults';
export { OtherOrigin, type OtherOriginRequest, STOLEN_TOKEN } from './other-origin';
export {
	type AddEventsOptions,
	EVENT_TYPES,
	type EventState,
	EventStore,
	type EventType,
	expandType,
	type FeedSortKey,
	type StoredEvent,
	TYPE_CATEGORIES,
} from './events';
export {
	type CredentialState,
	FeedApi,
	type FeedRouteName,
	filterSeverities,
	filterSourceTypes,
} from './feed';
