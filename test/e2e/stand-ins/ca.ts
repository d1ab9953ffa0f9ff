/**
 * A throwaway certificate authority for the HTTPS stand-ins, made with Debian's `openssl` at each
 * start: a CA certificate, and one server certificate it signs for every host the proxy answers for
 * (proxy.ts). Only the n8n of the test trusts the CA: its path goes to that process alone, as
 * NODE_EXTRA_CA_CERTS, which Node adds to its built-in roots at start-up (n8n's agents pass no `ca`
 * of their own: CONTRIBUTING.md, "Stand-ins of the tools the playbooks act on"). Nothing is installed
 * in the system's trust store. The CA can vouch for those hosts only (a critical name constraint,
 * RFC 5280 4.2.1.10, which OpenSSL and so Node enforce), and its key is deleted once it signed: no
 * other certificate can be made with it. The server's key is kept in memory only.
 */
import { childProcess, fs, path } from '../../support/node';

export interface TestAuthority {
	/** The CA certificate (PEM): what NODE_EXTRA_CA_CERTS points at. */
	caFile: string;
	/** The server certificate (for every host) and its key, PEM. */
	cert: string;
	key: string;
}

/** Runs `openssl` in `cwd` with the words of `command`, then `extra` (arguments that hold spaces). */
const openssl = (cwd: string, command: string, ...extra: string[]) =>
	childProcess.execFileSync('openssl', [...command.split(' '), ...extra], {
		cwd,
		stdio: ['ignore', 'pipe', 'pipe'],
	});

/**
 * A new CA in `folder` (emptied first) and a certificate for `hosts`, valid for two days. EC keys
 * (P-256): made in milliseconds.
 */
export function makeTestAuthority(folder: string, hosts: string[]): TestAuthority {
	fs.rmSync(folder, { recursive: true, force: true });
	fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
	const newKey = '-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes';
	openssl(
		folder,
		`req -x509 ${newKey} -keyout ca.key -out ca.pem -days 2`,
		'-subj',
		'/CN=n8n-nodes-flareio e2e stand-ins CA',
		'-addext',
		'basicConstraints=critical,CA:TRUE',
		'-addext',
		'keyUsage=critical,keyCertSign,cRLSign',
		'-addext',
		`nameConstraints=critical,${hosts.map((host) => `permitted;DNS:${host}`).join(',')}`,
	);
	openssl(folder, `req ${newKey} -keyout server.key -out server.csr`, '-subj', `/CN=${hosts[0]}`);
	fs.writeFileSync(
		path.join(folder, 'server.ext'),
		[
			`subjectAltName=${hosts.map((host) => `DNS:${host}`).join(',')}`,
			'basicConstraints=CA:FALSE',
			'keyUsage=critical,digitalSignature',
			'extendedKeyUsage=serverAuth',
			'',
		].join('\n'),
	);
	openssl(
		folder,
		'x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile server.ext',
	);
	const key = fs.readFileSync(path.join(folder, 'server.key'), 'utf8');
	for (const file of ['ca.key', 'server.key', 'server.csr', 'ca.srl']) {
		fs.rmSync(path.join(folder, file), { force: true });
	}
	return {
		caFile: path.join(folder, 'ca.pem'),
		cert: fs.readFileSync(path.join(folder, 'server.pem'), 'utf8'),
		key,
	};
}
