// The types the app and its routes share, so that routes never import the app that registers them.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Caller } from '../scrape/caller.js';
import type { Operation } from '../storage/storage.js';
import type { ErrorCode } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
    /** The route set the limit headers itself (a scrape, before its commit): onSend must not compute them again. */
    limitHeadersDone: boolean;
    /** Answered 429 rate_limited by the refusal limit: that answer is not itself counted as a refusal. */
    refusalLimited: boolean;
    /** The catalogue code of the problem this call was answered with, if any (the refusal limit reads it). */
    problemCode: ErrorCode | null;
    /** The caller's own X-Request-Id when it is a sane one (callerRequestIdOf): logged and echoed beside Kumo's. */
    callerRequestId: string | null;
    /** What the call was about, once known (a scrape's site and page type): the access log line says it. */
    subject: { readonly siteId: string | null; readonly pageType: string | null } | null;
  }
}

export type KumoApp = FastifyInstance<Server, IncomingMessage, ServerResponse, Logger, TypeBoxTypeProvider>;

/** The preHandler that authenticates a call for one operation (null: any key that authenticates). */
export type Authenticate = (operation: Operation | null) => (request: FastifyRequest) => Promise<void>;
