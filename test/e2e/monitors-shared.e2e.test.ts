// Monitors end to end in shared mode (PostgreSQL, pg-boss, Redis): see test/support/monitor-scenarios.ts.
import { describeMonitors } from '../support/monitor-scenarios.js';

describeMonitors('shared');
