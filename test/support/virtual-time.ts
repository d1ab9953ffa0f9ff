/**
 * Jest runs this in every test file before the file itself (setupFilesAfterEnv): the file's tests run
 * on virtual time (clock.ts), so that waits take no time and no result depends on the machine's load.
 */
import { installVirtualTime, useRealTime } from './clock';

beforeAll(() => {
	installVirtualTime();
});
afterAll(() => useRealTime());
