/**
 * Starts the embedded server on PostgreSQL (as one process, or with the argument `services` one
 * per service) and prints what it started as one JSON line, then waits to be killed: the subject
 * of the SIGKILL test in postgres-cluster.test.ts.
 *
 *   node --import tsx src/environment/testing/postgres-in-child.ts [services]
 */
import { childPids, findEmbeddedServerPid } from '../../load/index.ts';
import { SERVICES, startEnvironment } from '../index.ts';

const env = await startEnvironment({ persistence: 'postgres', topology: process.argv[2] === 'services' ? 'services' : 'single' });
const postgres = env.postgres;
if (!postgres) throw new Error('persistence postgres gave no PostgreSQL cluster');
const started = {
  server: env.services ? SERVICES.map((service) => env.services?.pid(service)) : [findEmbeddedServerPid(env.address)],
  supervisor: postgres.supervisorPid,
  postgres: [postgres.postmasterPid, ...childPids(postgres.postmasterPid)],
  dir: postgres.dir,
};
process.stdout.write(`${JSON.stringify(started)}\n`);
setInterval(() => {}, 60_000);
