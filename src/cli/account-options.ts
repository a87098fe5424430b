// The values `kumo keys` and `kumo accounts` take: plans, operations and outputs, and the plan option's check.
import type { Output, PlanId } from '../storage/storage.js';
import { allOperations } from '../storage/storage.js';
import { UsageError } from './args.js';

export const plans: readonly PlanId[] = ['free', 'starter', 'growth'];
export const operations = allOperations;
export const outputs: readonly Output[] = ['json', 'html', 'artifact'];

export function plan(value: string | undefined): PlanId | undefined {
  if (value === undefined) return undefined;
  if (!plans.includes(value as PlanId)) throw new UsageError(`--plan must be one of ${plans.join(', ')}`);
  return value as PlanId;
}
