// Monitor alerts to Slack, ChatWork and LINE: each vendor's exact request, its validation, masking, and one send.
import { createHash } from 'node:crypto';
import type { SendOutcome, WebhookSender } from '../webhooks/webhook-transport.js';
import type { RenderedMessage } from './messages.js';

export type Channel =
  | { kind: 'slack'; webhookUrl: string }
  | { kind: 'chatwork'; roomId: string; token: string }
  | { kind: 'line'; to: string; channelAccessToken: string };
export type ChannelKind = Channel['kind'];

export interface ChannelRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type ChannelResult = 'delivered' | 'retry' | 'give_up';

export interface ChannelOutcome {
  result: ChannelResult;
  /** The vendor's HTTP status, or null when no answer came. */
  status: number | null;
  /** The vendor's Retry-After, for a retry. */
  retryAfterMs?: number;
}

/** What a send tells its operator: the channel's kind, status and failure, never a URL, token or message. */
export interface ChannelLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

export const channelUserAgent = 'Kumo-Monitors/1';
/** LINE's limit on one text message, in UTF-16 code units. */
export const lineTextLimit = 5000;

/**
 * The vendor's exact request for a message. `idempotencyKey` is the event id: LINE gets it as `X-Line-Retry-Key` (a
 * UUID derived from it), so a retry after a lost answer is not shown twice; Slack and ChatWork have no such key.
 */
export function channelRequest(channel: Channel, message: RenderedMessage, idempotencyKey: string): ChannelRequest {
  switch (channel.kind) {
    case 'slack':
      // An incoming webhook's URL is its credential; the JSON `text` is mrkdwn (the title bold).
      return {
        url: channel.webhookUrl,
        headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': channelUserAgent },
        body: JSON.stringify({ text: `*${slackEscaped(message.title)}*\n${slackEscaped(message.text)}` }),
      };
    case 'chatwork':
      return {
        url: `https://api.chatwork.com/v2/rooms/${encodeURIComponent(channel.roomId)}/messages`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-chatworktoken': channel.token,
          'user-agent': channelUserAgent,
        },
        body: new URLSearchParams({ body: chatworkBody(message) }).toString(),
      };
    case 'line':
      return {
        url: 'https://api.line.me/v2/bot/message/push',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          authorization: `Bearer ${channel.channelAccessToken}`,
          'x-line-retry-key': retryKeyUuid(idempotencyKey),
          'user-agent': channelUserAgent,
        },
        body: JSON.stringify({ to: channel.to, messages: [{ type: 'text', text: lineText(message) }] }),
      };
  }
}

/** ChatWork's info box: the title in its header line, the text below. */
export function chatworkBody(message: RenderedMessage): string {
  return `[info][title]${chatworkEscaped(message.title)}[/title]${chatworkEscaped(message.text)}[/info]`;
}

/** The LINE text: title, then text, cut to LINE's limit (never inside a surrogate pair). */
export function lineText(message: RenderedMessage): string {
  const text = `${message.title}\n${message.text}`;
  if (text.length <= lineTextLimit) return text;
  let end = lineTextLimit - 1;
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end--;
  return `${text.slice(0, end)}…`;
}

/** A stable UUID (RFC 9562 version 8: name-based on SHA-256) for an event id: the same event, the same key. */
export function retryKeyUuid(key: string): string {
  const bytes = createHash('sha256').update(key).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Slack's three control characters (its docs: escape &, <, >), so a name cannot become a link or a mention. */
function slackEscaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * ChatWork has no escape for its tags, so a zero-width space after `[` keeps a name such as `[toall]` from
 * notifying the whole room or closing the info box; it does not show.
 */
function chatworkEscaped(text: string): string {
  return text.replace(/\[(?=\/?[A-Za-z])/g, '[\u200B');
}

const slackUrl = /^https:\/\/hooks\.slack(?:-gov)?\.com\/services\/[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+){0,3}$/;
const printableAscii = /^[\x21-\x7e]+$/;

/**
 * What is wrong with a channel the API was given (empty when nothing), naming the request's fields. Slack: an
 * incoming-webhook URL on hooks.slack.com or hooks.slack-gov.com only (any other host would make Kumo post a
 * caller-chosen URL); ChatWork: a numeric room and a token; LINE: a user, group or room id and a channel access token.
 * Never quotes a token.
 */
export function channelProblems(channel: Channel): string[] {
  const problems: string[] = [];
  switch (channel.kind) {
    case 'slack':
      if (channel.webhookUrl.length > 500 || !slackUrl.test(channel.webhookUrl)) {
        problems.push(
          'notify.slack.webhook_url must be a Slack incoming webhook URL (https://hooks.slack.com/services/…)',
        );
      }
      break;
    case 'chatwork':
      if (!/^[0-9]{1,20}$/.test(channel.roomId)) {
        problems.push('notify.chatwork.room_id must be the room number (digits only)');
      }
      problems.push(...tokenProblems('notify.chatwork.token', channel.token, 200));
      break;
    case 'line':
      if (!/^[UCR][0-9a-f]{32}$/.test(channel.to)) {
        problems.push('notify.line.to must be a LINE user, group or room id (U, C or R and 32 lower-case hex digits)');
      }
      problems.push(...tokenProblems('notify.line.channel_access_token', channel.channelAccessToken, 500));
      break;
  }
  return problems;
}

function tokenProblems(name: string, token: string, max: number): string[] {
  if (token.length === 0) return [`${name} is required`];
  if (token.length > max) return [`${name} is longer than ${max} characters`];
  // It goes into a header: a space, a newline or a non-ASCII character there is a typo, or an injection.
  if (!printableAscii.test(token)) return [`${name} must be printable ASCII without spaces`];
  return [];
}

/**
 * Sends a message through a WebhookSender (the webhooks' address policy, KUMO_CONNECT_TO, no redirects, a timeout)
 * and says what to do next. Logs a warning with the kind and status when it is not delivered.
 */
export async function sendToChannel(
  sender: WebhookSender,
  channel: Channel,
  message: RenderedMessage,
  idempotencyKey: string,
  log?: ChannelLog,
): Promise<ChannelOutcome> {
  const request = channelRequest(channel, message, idempotencyKey);
  const outcome = await sender.send(request.url, request.headers, request.body);
  const result = channelOutcome(channel.kind, outcome);
  if (result.result !== 'delivered') {
    log?.warn(
      {
        channel: channel.kind,
        result: result.result,
        status: result.status,
        ...(outcome.kind === 'failed' ? { failure: outcome.failure } : {}),
      },
      'monitor channel message not delivered',
    );
  }
  return result;
}

/**
 * An attempt's outcome as the next step: 2xx delivered; 5xx, 408, 429 (with its Retry-After), no connection or a
 * timeout retry; any other answer (a wrong token, a deleted room, a revoked webhook), a forbidden address or a
 * redirect give up, since sending the same request again cannot change them. LINE answers 409 to a retry key it has
 * already accepted: the message was delivered by an earlier attempt whose answer was lost.
 */
export function channelOutcome(kind: ChannelKind, outcome: SendOutcome): ChannelOutcome {
  if (outcome.kind === 'failed') {
    const status = outcome.status ?? null;
    const retry = outcome.failure === 'connect' || outcome.failure === 'timeout';
    return { result: retry ? 'retry' : 'give_up', status };
  }
  const { status, retryAfterMs } = outcome;
  if ((status >= 200 && status < 300) || (kind === 'line' && status === 409)) return { result: 'delivered', status };
  if (status >= 500 || status === 429 || status === 408) {
    return retryAfterMs === undefined ? { result: 'retry', status } : { result: 'retry', status, retryAfterMs };
  }
  return { result: 'give_up', status };
}

/**
 * The channel for the API's answers and logs: ids as they are, secrets reduced to their last 4 characters (none of
 * a secret shorter than 12, where 4 would be a third of it); Slack's URL is its secret, so all of its path but the
 * last 4 is hidden.
 */
export function maskedChannel(channel: Channel): Record<string, string> {
  switch (channel.kind) {
    case 'slack':
      return { kind: 'slack', webhook_url: maskedSlackUrl(channel.webhookUrl) };
    case 'chatwork':
      return { kind: 'chatwork', room_id: channel.roomId, token: masked(channel.token) };
    case 'line':
      return { kind: 'line', to: channel.to, channel_access_token: masked(channel.channelAccessToken) };
  }
}

function masked(secret: string): string {
  return secret.length < 12 ? '…' : `…${secret.slice(-4)}`;
}

function maskedSlackUrl(url: string): string {
  const match = /^(https:\/\/[^/]+\/services\/)(.+)$/.exec(url);
  return match ? `${match[1]}${masked(match[2]!)}` : masked(url);
}
