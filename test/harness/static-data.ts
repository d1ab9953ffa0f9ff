import type { IDataObject, Workflow } from 'n8n-workflow';

/**
 * The n8n lines the package supports, whose lifecycle the harness reproduces where they differ
 * (test/harness/README.md): n8n 2.41.x and 1.123.x.
 */
export type N8nLine = '2.41' | '1.123';

/** Both lines, for tests that run on each. */
export const N8N_LINES: N8nLine[] = ['2.41', '1.123'];

/**
 * A workflow's `staticData` column in n8n's database: null until n8n first saved it. Two harness
 * workflows given one column are two triggers of one workflow (docs/alerts.md, "What n8n saves, and
 * when"): each saves it whole, the last writer's copy is kept.
 */
export class StaticDataColumn {
	value: IDataObject | null = null;
}

/** JSON, as n8n writes and reads the column (a `toJSON` is called when written). */
export const plain = (data: unknown): IDataObject =>
	JSON.parse(JSON.stringify(data ?? {})) as IDataObject;

/**
 * n8n's `isWorkflowIdValid` (`dist/utils.js`), which every static-data save checks first: n8n 2.41.1
 * saves for an id of 1 to 21 characters, n8n 1.123.81 for one of at most 16. A workflow with a longer
 * id (one imported with `n8n import:workflow` keeps the id of its file) never has its static data
 * saved: n8n logs nothing and keeps it in memory only (docs/trigger.md, "What n8n saves, and when").
 */
export function savesStaticDataFor(line: N8nLine, workflowId: string | undefined): boolean {
	if (typeof workflowId !== 'string') return false;
	return line === '2.41'
		? workflowId.length > 0 && workflowId.length <= 21
		: workflowId.length <= 16;
}

/**
 * `WorkflowStaticDataService.saveStaticData` (`dist/workflows/workflow-static-data.service.js`, the
 * same on both lines): when the workflow's static data is marked changed and its id valid, it is
 * written whole to the column (`saveStaticDataById`) and the mark cleared. Returns whether it saved.
 */
export function saveStaticData(line: N8nLine, workflow: Workflow, column: StaticDataColumn): boolean {
	if (workflow.staticData.__dataChanged !== true) return false;
	if (!savesStaticDataFor(line, workflow.id)) return false;
	column.value = plain(workflow.staticData);
	delete column.value.__dataChanged;
	workflow.staticData.__dataChanged = false;
	return true;
}
