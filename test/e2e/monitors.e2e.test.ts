// Monitors end to end on the embedded default (one process, SQLite): see test/support/monitor-scenarios.ts.
import { describeMonitors } from '../support/monitor-scenarios.js';

describeMonitors('sqlite');
