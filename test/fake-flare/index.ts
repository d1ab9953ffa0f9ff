/** The fake Flare API used by every test: server, dataset oracle, fault injection. */
export {
	DEFAULT_API_KEYS,
	FakeFlare,
	type FakeFlareOptions,
	type FakeState,
	type KeyRole,
	type LoggedRequest,
	type ResolvedFakeFlareOptions,
	type Tier,
} from './server';
export { Dataset, SCAN_CAP, type StoredAssignment } from './dataset';
export { Faults, type Fault, type FaultRule } from './faults';
