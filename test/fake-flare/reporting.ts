/**
 * Flare's platform reports (v4 `GET /{segment}/v4/reports`, `…/{report_id}`, `…/{report_id}/download`,
 * tag `feature=reports`), issue 40. server.ts routes them here after authentication and rate limits.
 * The fake's choices where Flare's docs are silent are in README.md.
 */
import {
	PlatformReportDownloadQuery,
	type PublicReport,
	ReportIdParam,
	ReportListQuery,
} from '../contract';
import { csvOf, docxOf, pdfOf, zipOf } from './files';
import { positionsPage, type Quirks } from './paging';
import { isoWithOffset } from './random';
import {
	answer,
	errorReply,
	Halt,
	type HandlerRequest,
	jsonReply,
	parseWith,
	pathParam,
	type Reply,
} from './replies';

export type ReportingRouteName = 'listReports' | 'getReport' | 'downloadReport';

export interface ReportingRoute {
	name: ReportingRouteName;
	method: string;
	path: string;
}

/** The routes of this module; `seg` is the product segment, already escaped for a RegExp. */
export function reportingRoutes(seg: string): ReportingRoute[] {
	const reports = `/${seg}/v4/reports`;
	return [
		{ name: 'listReports', method: 'GET', path: reports },
		{ name: 'downloadReport', method: 'GET', path: `${reports}/([^/]+)/download` },
		{ name: 'getReport', method: 'GET', path: `${reports}/([^/]+)` },
	];
}

/** Seeded reports per tenant: more than a page of 20; every fifth archived. */
const REPORTS = 25;
const STATUSES: PublicReport['status'][] = ['completed', 'completed', 'scheduled', 'draft', 'processing', 'paused'];
const DAY_MS = 86_400_000;

/** The media type of each format, as the fake answers it. */
const MEDIA_TYPES = {
	csv: 'text/csv',
	docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	pdf: 'application/pdf',
	zip: 'application/zip',
} as const;

export class ReportingApi {
	constructor(
		private readonly settings: { tenants: number[]; startTime: string; quirks: Quirks },
	) {}

	/** Every report of the tenant, archived ones included, in id order. */
	reportsOf(tenantId: number): PublicReport[] {
		const t = this.settings.tenants.indexOf(tenantId);
		if (t < 0) return [];
		const start = Date.parse(this.settings.startTime);
		return Array.from({ length: REPORTS }, (_, k) => {
			const created = isoWithOffset(start + k * 3 * DAY_MS);
			return {
				id: 610001 + t * 1000 + k,
				title: k % 2 === 0 ? `Monthly client report #${k + 1}` : `Executive exposure summary #${k + 1}`,
				author: k % 3 === 0 ? 'Flare' : 'soc@acme.com',
				tenant_id: tenantId,
				report_group_id: 700 + (k % 4),
				report_type: k % 2 === 0 ? 'feed_based' : 'event_based',
				status: STATUSES[k % STATUSES.length],
				created_at: created,
				updated_at: isoWithOffset(start + k * 3 * DAY_MS + DAY_MS),
				is_archived: k % 5 === 4,
			};
		});
	}

	/** The file of a report in `format`: its fields, as a reader of the file finds them. */
	fileOf(report: PublicReport, format: keyof typeof MEDIA_TYPES): Buffer {
		const lines = [report.title, `Author: ${report.author}`, `Status: ${report.status}`, `Created: ${report.created_at}`];
		if (format === 'pdf') return pdfOf(lines);
		if (format === 'docx') return docxOf(lines);
		const csv = csvOf([['id', 'title', 'author', 'status', 'created_at'], [String(report.id), report.title, report.author, report.status, report.created_at]]);
		return format === 'csv' ? csv : zipOf([[`report-${report.id}.csv`, csv.toString('utf8')]]);
	}

	handle(name: ReportingRouteName, request: HandlerRequest): Reply {
		return answer(() => {
			switch (name) {
				case 'listReports':
					return this.list(request);
				case 'getReport':
					return jsonReply(200, this.reportOf(request));
				case 'downloadReport':
					return this.download(request);
			}
		});
	}

	private list(request: HandlerRequest): Reply {
		const query = parseWith(ReportListQuery, request.query, 'query');
		const key = query.order_by;
		const reports = this.reportsOf(request.tenantId)
			.filter((report) => query.include_archived || !report.is_archived)
			.sort((a, b) => (a[key] === b[key] ? a.id - b.id : a[key] < b[key] ? -1 : 1));
		if (query.order_type === 'desc') reports.reverse();
		const { from, ...params } = query;
		const page = request.pages({ scope: 'reports', params, from, location: 'query' }, (cursor) =>
			positionsPage(cursor, reports.length, query.size, this.settings.quirks),
		);
		return jsonReply(200, { items: page.items.map((j) => reports[j]), next: page.next });
	}

	private reportOf(request: HandlerRequest): PublicReport {
		const id = pathParam('report_id', request.params[0], ReportIdParam);
		const report = this.reportsOf(request.tenantId).find((candidate) => candidate.id === id);
		if (!report) throw new Halt(errorReply(404, 'NOT_FOUND', `report ${id} not found`));
		return report;
	}

	private download(request: HandlerRequest): Reply {
		const report = this.reportOf(request);
		const { format } = parseWith(PlatformReportDownloadQuery, request.query, 'query');
		return {
			status: 200,
			raw: this.fileOf(report, format),
			headers: {
				'content-type': MEDIA_TYPES[format],
				'content-disposition': `attachment; filename="report-${report.id}.${format}"`,
			},
		};
	}
}
