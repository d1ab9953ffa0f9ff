import { makeTestAuthority } from '../e2e/stand-ins/ca';
import { childProcess, fs, os, path } from '../support/node';

const HOSTS = ['slack.com', 'graph.microsoft.com'];
const openssl = (...args: string[]) =>
	childProcess.execFileSync('openssl', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe("the e2e stand-ins' certificate authority (review of issue 41, F11)", () => {
	let folder = '';
	beforeAll(() => {
		folder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'flare-ca-')), 'ca');
		makeTestAuthority(folder, HOSTS);
	});
	afterAll(() => fs.rmSync(path.dirname(folder), { recursive: true, force: true }));

	it('leaves no key on disk: nothing else can ever be signed with it', () => {
		expect(fs.readdirSync(folder).sort()).toEqual(['ca.pem', 'server.ext', 'server.pem']);
	});

	it('may vouch for the proxied hosts only (a critical name constraint), and vouches for them', () => {
		const text = openssl('x509', '-in', path.join(folder, 'ca.pem'), '-noout', '-text');
		const constraints = /X509v3 Name Constraints: critical\n\s+Permitted:\n((?:\s+DNS:.*\n)+)/.exec(text);
		expect(constraints?.[1].trim().split(/\s+/)).toEqual(HOSTS.map((host) => `DNS:${host}`));
		expect(
			openssl('verify', '-CAfile', path.join(folder, 'ca.pem'), path.join(folder, 'server.pem')),
		).toContain(': OK');
	});
});
