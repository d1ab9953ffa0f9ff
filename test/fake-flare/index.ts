/** The fake Flare API used by every test: server, dataset oracle, fault injection. */
export {
	DEFAULT_API_KEYS,
	FakeFlare,
	type FakeFlareOptions,
	type FakeState,
	type GlobalSearchTally,
	type KeyRole,
	type LoggedRequest,
	type OtherOrganizationTenant,
	QUOTA_SESSION_MS,
	type QuotaExhaustion,
	type QuotaReading,
	RESULTS_PER_UNIT,
	type ResolvedFakeFlareOptions,
	type StoredReportRequest,
	threatReportFor,
	type Tier,
} from './server';
export {
	type AddedCredentialOptions,
	Dataset,
	DEFAULT_LIST_SIZES,
	SCAN_CAP,
	SECRET_IDENTIFIER_ID,
	type StoredAssignment,
} from './dataset';
export { type Cursor, decodeCursor } from './paging';
export {
	compareKeys,
	type EndCursor,
	reversedDomain,
	type SearchOrder,
	type SortKey,
} from './search-after';
export { Faults, type Fault, type FaultRule, type PagingFault } from './faults';
export { OtherOrigin, type OtherOriginRequest, STOLEN_TOKEN } from './other-origin';
export { holdsPlanted, planted, PLANTED_MARKER, plantedSecret } from './planted';
export {
	ADDED_EVENT_TYPES,
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
export {
	alertFor,
	type FlareAlert,
	pushAlert,
	type PushOptions,
	type PushResult,
	signature,
	signatureHeader,
	TEST_ALERT_UID,
	testAlert,
} from './push';
