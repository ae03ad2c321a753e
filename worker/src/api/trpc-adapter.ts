import { z } from 'zod';
import { AppError, notFound } from '../lib/errors';
import type { Principal } from '../middleware/context';
import { protectedProcedure, publicProcedure, type TrpcContext } from '../trpc/init';
import type { TRPCMutationProcedure, TRPCQueryProcedure } from '@trpc/server';
import type { AnyOperation, Operation, OperationContext } from './operation';
import { principalFor } from './principal';

/**
 * The tRPC procedures of a domain's operations, keyed by their `trpc` name. The input is the
 * operation's parts as one object (`{...params, ...query, ...body}`), validated by the same schemas;
 * the guard comes from `access` (API keys never reach /api/trpc: wiring/api-key-policy.ts).
 */
export function toProcedures<const Ops extends readonly AnyOperation[]>(operations: Ops): ProceduresOf<Ops> {
  const procedures: Record<string, unknown> = {};
  for (const op of operations) if (op.trpc) procedures[op.trpc] = toProcedure(op);
  return procedures as ProceduresOf<Ops>;
}

/*
 * The types the web client sees (AppRouter). The procedures are built at run time from the same
 * declaration; these say what they take and answer: path parameters as strings, the query (optional
 * when it is all there is) and the body as the schemas read them, the service's own answer.
 */
type ParamsIn<I> = I extends { params: z.ZodObject } ? { [K in keyof z.input<I['params']>]: string } : unknown;
type QueryIn<I> = I extends { query: z.ZodType } ? z.input<I['query']> : unknown;
type BodyIn<I> = I extends { body: z.ZodType } ? z.input<I['body']> : unknown;
type HasPart<I> = I extends { params: z.ZodType } ? true : I extends { query: z.ZodType } ? true : I extends { body: z.ZodType } ? true : false;
type OnlyQuery<I> = I extends { params: z.ZodType } ? false : I extends { body: z.ZodType } ? false : I extends { query: z.ZodType } ? true : false;
// biome-ignore lint/suspicious/noConfusingVoidType: `void` is tRPC's own "takes no input" type: it is what lets the client call such a procedure with no argument (`useQuery()`); undefined would require one
type TrpcInputOf<I> = HasPart<I> extends false ? void : OnlyQuery<I> extends true ? QueryIn<I> | undefined : ParamsIn<I> & QueryIn<I> & BodyIn<I>;
type KindOf<Op extends AnyOperation> = Op['trpcKind'] extends 'query' | 'mutation' ? Op['trpcKind'] : Op['method'] extends 'get' ? 'query' : 'mutation';
type ProcedureOf<Op extends AnyOperation> =
  Op extends Operation<infer _A, infer I, infer _O, infer R, infer _M, infer _N>
    ? KindOf<Op> extends 'query'
      ? TRPCQueryProcedure<{ input: TrpcInputOf<I>; output: Awaited<R>; meta: object }>
      : TRPCMutationProcedure<{ input: TrpcInputOf<I>; output: Awaited<R>; meta: object }>
    : never;
export type ProceduresOf<Ops extends readonly AnyOperation[]> = {
  [Op in Ops[number] as Op['trpc'] extends string ? Op['trpc'] : never]: ProcedureOf<Op>;
};

export function toProcedure(op: AnyOperation) {
  const base = op.access.kind === 'public' ? publicProcedure : protectedProcedure;
  const schema = trpcInput(op);
  const run = ({ ctx, input, path }: { ctx: TrpcContext; input: unknown; path: string }) => {
    if (op.exists && !op.exists(ctx.services.env)) throw new AppError('NOT_FOUND', `No API route for ${op.method.toUpperCase()} /api/trpc/${path}`);
    return op.run(context(op, ctx), input ?? {});
  };
  const withInput = schema ? base.input(schema) : base;
  return (op.trpcKind ?? (op.method === 'get' ? 'query' : 'mutation')) === 'query' ? withInput.query(run) : withInput.mutation(run);
}

/** One object from the parts; an operation with no input takes none (an absent input reads as `{}`). */
function trpcInput(op: AnyOperation): z.ZodType | undefined {
  const params = op.input.params ? notFoundParams(op.input.params, op.notFound ?? (() => notFound())) : undefined;
  const parts = [params, op.input.query, op.input.body].filter((p): p is z.ZodType => p !== undefined);
  if (parts.length === 0) return undefined;
  if (parts.length === 1) {
    const only = parts[0]!;
    // A query-only input is optional over tRPC (`message.list()` means the defaults).
    return op.input.query && !op.input.params && !op.input.body ? only.optional().transform((v) => v ?? only.parse({})) : only;
  }
  return z.object(Object.assign({}, ...parts.map((p) => (p as z.ZodObject).shape)));
}

/**
 * Path parameters over tRPC answer like REST: a malformed id is the operation's 404, not a 422. The
 * AppError thrown here reaches trpc/init.ts's error middleware as the input error's cause.
 */
function notFoundParams(params: z.ZodObject, refuse: () => AppError): z.ZodObject {
  const shape = Object.fromEntries(
    Object.entries(params.shape).map(([name, field]) => [
      name,
      z.string().transform((value) => {
        const parsed = (field as z.ZodType).safeParse(value);
        if (!parsed.success) throw refuse();
        return parsed.data as string;
      }),
    ]),
  );
  return z.object(shape);
}

function context(op: AnyOperation, ctx: TrpcContext): OperationContext {
  const principal = principalFor(op.access, ctx.principal) as Principal;
  return { services: ctx.services, principal, clientAddress: ctx.clientAddress, requestId: ctx.requestId, range: null, header: () => null };
}
