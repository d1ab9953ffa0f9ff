import type { IDataObject } from 'n8n-workflow';

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
