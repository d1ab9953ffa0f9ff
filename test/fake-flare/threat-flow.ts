/**
 * Threat Flow beyond the playbook's reads (issue 40): deleting and publishing a report (v4
 * `DELETE …/threat_flow/reports/{report_id}`, `PATCH …/{report_id}/publish`) and the conversation
 * around a chat event (`POST …/threat_flow/unit_summary/related_conversation`). server.ts routes them
 * here after authentication, entitlements and rate limits; writes are recorded; the messages plant a
 * credential line (planted.ts). The fake's choices where Flare's docs are silent are in README.md.
 */
import {
	type ConversationMessage,
	PublishReportBody,
	RelatedConversationBody,
	ReportIdParam,
} from '../contract';
import type { EventStore, StoredEvent } from './events';
import type { PlaybookApi } from './playbook';
import { plantedSecret } from './planted';
import { isoWithOffset } from './random';
import {
	answer,
	errorReply,
	type HandlerRequest,
	invalidReply,
	jsonBody,
	jsonReply,
	parseWith,
	pathParam,
	type Reply,
} from './replies';

export type ThreatFlowRouteName = 'deleteThreatReport' | 'publishThreatReport' | 'relatedConversation';

export interface ThreatFlowRoute {
	name: ThreatFlowRouteName;
	method: string;
	/** Regular expression source of the path; groups are the path parameters. */
	path: string;
	needs?: 'threatIntel';
}

/** The routes of this module; `seg` is the product segment, already escaped for a RegExp. */
export function threatFlowRoutes(seg: string): ThreatFlowRoute[] {
	const reports = `/${seg}/v4/threat_flow/reports`;
	return [
		{ name: 'publishThreatReport', method: 'PATCH', path: `${reports}/([^/]+)/publish`, needs: 'threatIntel' },
		{ name: 'deleteThreatReport', method: 'DELETE', path: `${reports}/(?!requests$)([^/]+)`, needs: 'threatIntel' },
		{ name: 'relatedConversation', method: 'POST', path: `/${seg}/v4/threat_flow/unit_summary/related_conversation` },
	];
}

/** Messages of each chat event's conversation; the event's own is the middle one. */
const CONVERSATION_LENGTH = 30;
const EVENT_POSITION = 15;
const MINUTE_MS = 60_000;

/** The credential line a conversation's messages quote: planted (planted.ts). */
export function plantedInConversation(uid: string): string {
	return plantedSecret('', `${uid}#conversation`);
}

export class ThreatFlowApi {
	constructor(
		private readonly playbook: PlaybookApi,
		private readonly events: EventStore,
		private readonly now: () => number,
		private readonly recordWrite: (write: { method: string; path: string; body: unknown }) => void,
	) {}

	handle(name: ThreatFlowRouteName, request: HandlerRequest): Reply {
		return answer(() => {
			switch (name) {
				case 'deleteThreatReport':
					return this.deleteReport(request);
				case 'publishThreatReport':
					return this.publishReport(request);
				case 'relatedConversation':
					return this.relatedConversation(request);
			}
		});
	}

	/** Every planted value of this module's answers. */
	plantedValues(): string[] {
		return this.events.allUids().map(plantedInConversation);
	}

	/** The conversation of a chat event, in order: its messages, the event's in the middle. */
	conversation(event: StoredEvent): ConversationMessage[] {
		return Array.from({ length: CONVERSATION_LENGTH }, (_, k) => {
			const at = event.estimatedCreatedMs + (k - EVENT_POSITION) * MINUTE_MS;
			const text =
				k === EVENT_POSITION
					? event.content.slice(0, 200)
					: k === EVENT_POSITION + 2
						? `fresh logs, this one works: admin@initech.com:${plantedInConversation(event.uid)}`
						: `message ${k} of ${event.sourceName}`;
			return {
				uid: `${event.uid}/m${k}`,
				message: text,
				message_en: null,
				author_name: k % 3 === 0 ? 'darkseller' : `user${k % 5}`,
				date_time: isoWithOffset(at),
			};
		});
	}

	private deleteReport(request: HandlerRequest): Reply {
		const id = pathParam('report_id', request.params[0], ReportIdParam);
		if (!this.playbook.editReport(request.tenantId, id, 'deleted')) return errorReply(404, 'NOT_FOUND', `report ${id} not found`);
		this.recordWrite({ method: request.method, path: request.rawPath, body: undefined });
		return jsonReply(200, {});
	}

	private publishReport(request: HandlerRequest): Reply {
		const id = pathParam('report_id', request.params[0], ReportIdParam);
		const rawBody = jsonBody(request);
		const body = parseWith(PublishReportBody, rawBody, 'body');
		const publishedAt = isoWithOffset(Math.floor(this.now() / 1000) * 1000);
		const edit = { ...(body.title ? { title: body.title } : {}), published_at: publishedAt };
		if (!this.playbook.editReport(request.tenantId, id, edit)) return errorReply(404, 'NOT_FOUND', `report ${id} not found`);
		this.recordWrite({ method: request.method, path: request.rawPath, body: rawBody });
		return jsonReply(200, { report: this.playbook.report(request.tenantId, id) });
	}

	/**
	 * The messages after (or before) the event, or after (before) `search_after`, a message's place
	 * (`m<k>`); `next` and `previous` are the places to go on from in each direction, null at an end.
	 */
	private relatedConversation(request: HandlerRequest): Reply {
		const body = parseWith(RelatedConversationBody, jsonBody(request), 'body');
		const event = this.events.event(body.uid);
		if (!event) return jsonReply(404, { message: 'Activity not found', code: 'NOT_FOUND' });
		if (event.type !== 'chat_message') {
			return invalidReply([{ loc: ['body', 'uid'], msg: 'The event is not a chat message', type: 'value_error', input: body.uid }]);
		}
		const place = body.search_after ? /^m(\d+)$/.exec(body.search_after)?.[1] : String(EVENT_POSITION);
		if (place === undefined || Number(place) >= CONVERSATION_LENGTH) {
			return invalidReply([{ loc: ['body', 'search_after'], msg: 'Invalid cursor', type: 'value_error', input: body.search_after }]);
		}
		const at = Number(place);
		const all = this.conversation(event);
		const [start, end] =
			body.direction === 'next' ? [at + 1, Math.min(CONVERSATION_LENGTH, at + 1 + body.size)] : [Math.max(0, at - body.size), at];
		const messages = all.slice(start, end).map((message) =>
			body.should_translate ? { ...message, message_en: `[en] ${message.message}` } : message,
		);
		return jsonReply(200, {
			conversation_messages: messages,
			conversation_name: `${event.sourceName} chat`,
			conversation_name_en: body.should_translate ? `${event.sourceName} chat (en)` : null,
			next: end < CONVERSATION_LENGTH && end > start ? `m${end - 1}` : null,
			previous: start > 0 && end > start ? `m${start}` : null,
		});
	}
}
