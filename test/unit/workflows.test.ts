import { fs, path, processRef } from '../support/node';

/** Jest runs from the repository's root. */
const folder = path.join(processRef.cwd(), 'workflows');
const files = fs
	.readdirSync(folder, { withFileTypes: true })
	.filter((entry) => entry.isDirectory())
	.flatMap((entry) =>
		fs
			.readdirSync(path.join(folder, entry.name))
			.filter((name) => name.endsWith('.json'))
			.map((name) => `${entry.name}/${name}`),
	);

describe('the example workflows', () => {
	/**
	 * `n8n import:workflow` keeps the id a file gives, and n8n 1.x saves a workflow's static data (a
	 * trigger's state) only for an id of at most 16 characters, n8n 2.41 for one of at most 21
	 * (`isWorkflowIdValid`; docs/trigger.md, "What n8n saves, and when").
	 */
	it('have ids of 1 to 16 characters, unique, so that n8n 1.x saves what their triggers keep', () => {
		const ids = files.map((file) => (JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8')) as { id?: unknown }).id);

		expect(files.length).toBeGreaterThan(40);
		expect(files.filter((_, k) => typeof ids[k] !== 'string' || !/^[A-Za-z0-9]{1,16}$/.test(ids[k] as string))).toEqual([]);
		expect(new Set(ids).size).toBe(ids.length);
	});
});
