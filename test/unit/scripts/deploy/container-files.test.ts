/**
 * The container files (scripts/deploy/: Dockerfile, compose.yaml, nginx.conf) are not run by CI —
 * this machine has no Docker engine — so what can be checked without one is checked here: the
 * Dockerfile builds and runs with the commands package.json and .ci/run use, as a non-root user,
 * with a health check; the compose file parses as YAML (PyYAML, an independent reader), names only
 * services that exist, gives the API nodes a configuration the service accepts, and agrees with
 * nginx.conf and with itself on addresses, credentials and the bucket.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig, REPO_ROOT } from '../../../../src/config.ts';

const DEPLOY = join(REPO_ROOT, 'scripts/deploy');
const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  base: string;
  name: string;
  instructions: Instruction[];
}

/** The Dockerfile's stages and their instructions (continuation lines joined, comments dropped). */
function dockerfileStages(text: string): { args: Instruction[]; stages: Stage[] } {
  const logical = text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const args: Instruction[] = [];
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, op, rest] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    assert.ok(op, `not an instruction: ${line}`);
    const instruction = { op: op.toUpperCase(), args: rest };
    if (instruction.op === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest);
      assert.ok(m, line);
      stages.push({ base: m[1], name: m[2] ?? String(stages.length), instructions: [] });
    } else if (stages.length === 0) {
      assert.equal(instruction.op, 'ARG', 'only ARG before the first FROM');
      args.push(instruction);
    } else stages.at(-1)!.instructions.push(instruction);
  }
  return { args, stages };
}

const runs = (stage: Stage) => stage.instructions.filter((i) => i.op === 'RUN').map((i) => i.args);

test('Dockerfile: build stage compiles with devDependencies, the image holds production dependencies and dist/ and runs node dist/src/main.js as a non-root user', () => {
  const { args, stages } = dockerfileStages(read('scripts/deploy/Dockerfile'));
  const byName = new Map(stages.map((s) => [s.name, s]));
  const [deps, build, runtime] = ['deps', 'build', 'runtime'].map((n) => byName.get(n)!);
  assert.ok(deps && build && runtime, 'stages deps, build, runtime');
  assert.equal(stages.at(-1), runtime, 'the runtime stage is the default target (last)');

  // the same commands as CI and npm start
  const ci = read('.ci/run');
  const pkg = JSON.parse(read('package.json'));
  assert.match(ci, /^npm ci\b/m);
  assert.ok(
    runs(deps).some((r) => /\bnpm ci --omit=dev\b/.test(r)),
    'production dependencies only',
  );
  assert.ok(
    runs(build).some((r) => /\bnpm ci\b(?!.*--omit)/.test(r)),
    'every dependency to build',
  );
  assert.ok(runs(build).some((r) => /\bnpm run build\b/.test(r)));
  assert.equal(typeof pkg.scripts.build, 'string');
  assert.equal(build.base, 'deps');
  assert.ok(!runs(runtime).some((r) => /\bnpm (ci|install)\b/.test(r)), 'nothing installed in the image itself');
  const copies = runtime.instructions.filter((i) => i.op === 'COPY').map((i) => i.args);
  assert.ok(copies.includes('--from=deps /app/node_modules ./node_modules'), 'node_modules of the production-only stage');
  assert.ok(copies.includes('--from=build /app/dist ./dist'));

  // the command: the compiled entry point npm start runs, which the build does produce
  const cmd = runtime.instructions.filter((i) => i.op === 'CMD').at(-1)!;
  assert.deepEqual(JSON.parse(cmd.args), ['node', 'dist/src/main.js']);
  assert.match(pkg.scripts.start, /\bdist\/src\/main\.js\b/);
  const tsBuild = JSON.parse(read('tsconfig.build.json'));
  assert.equal(tsBuild.compilerOptions.outDir, 'dist');
  assert.equal(tsBuild.compilerOptions.rootDir, '.');
  assert.ok(tsBuild.include.includes('src') && tsBuild.include.includes('workers'));

  // not root, and a liveness check
  const users = runtime.instructions.filter((i) => i.op === 'USER').map((i) => i.args);
  assert.deepEqual(users, ['node']);
  const userAt = runtime.instructions.findIndex((i) => i.op === 'USER');
  assert.ok(userAt > runtime.instructions.findLastIndex((i) => i.op === 'RUN'), 'every RUN of the image before switching to the user');
  const health = runtime.instructions.find((i) => i.op === 'HEALTHCHECK');
  assert.match(health?.args ?? '', /\/healthz/);
  assert.match(runtime.instructions.find((i) => i.op === 'ENV')?.args ?? '', /HOST=0\.0\.0\.0/);

  // the Node major version is the one .nvmrc names
  assert.ok(args.some((a) => a.args === `NODE_VERSION=${read('.nvmrc').trim()}`));
  for (const stage of stages) if (!byName.has(stage.base)) assert.match(stage.base, /^node:\$\{NODE_VERSION\}-/);

  // everything copied from the context exists, and the context leaves out what must not go in
  for (const stage of stages)
    for (const i of stage.instructions.filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'))) {
      for (const source of i.args.split(/\s+/).slice(0, -1)) assert.ok(existsSync(join(REPO_ROOT, source)), `COPY ${source}`);
    }
  const ignored = read('scripts/deploy/Dockerfile.dockerignore').split('\n');
  for (const entry of ['.git', 'node_modules', 'dist', 'var']) assert.ok(ignored.includes(entry), entry);
});

interface ComposeService {
  build?: { context: string; dockerfile: string; target?: string };
  image?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  networks?: string[] | Record<string, { ipv4_address?: string }>;
  entrypoint?: string[];
  command?: string[];
  stop_grace_period?: string;
}

/** compose.yaml as PyYAML reads it (anchors and merge keys resolved). */
function compose(): { services: Record<string, ComposeService>; volumes: Record<string, unknown>; networks: Record<string, unknown> } {
  const json = execFileSync(
    '/usr/bin/python3',
    ['-c', 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))', join(DEPLOY, 'compose.yaml')],
    {
      encoding: 'utf8',
    },
  );
  return JSON.parse(json);
}

test('compose.yaml: two API nodes, PostGIS, MinIO and a load balancer; every service, volume and file it names exists', () => {
  const { services, volumes, networks } = compose();
  const apiNodes = Object.keys(services).filter((n) => services[n].build?.target === 'runtime');
  assert.deepEqual(apiNodes, ['api-1', 'api-2']);
  assert.match(services.postgis.image!, /^postgis\/postgis:15-/);
  assert.match(services.minio.image!, /^minio\/minio/);
  assert.match(services.loadbalancer.image!, /^nginx:/);
  for (const [name, service] of Object.entries(services)) {
    for (const dep of Object.keys(service.depends_on ?? {})) assert.ok(dep in services, `${name} depends on ${dep}`);
    if (service.build) {
      const context = join(DEPLOY, service.build.context);
      assert.equal(context, REPO_ROOT.replace(/\/$/, ''), `${name} builds from the repository root`);
      assert.ok(existsSync(join(context, service.build.dockerfile)), service.build.dockerfile);
      const stages = dockerfileStages(readFileSync(join(context, service.build.dockerfile), 'utf8')).stages.map((s) => s.name);
      assert.ok(stages.includes(service.build.target!), `${name}: target ${service.build.target}`);
    }
    for (const volume of service.volumes ?? []) {
      const [source] = volume.split(':');
      if (source.startsWith('.')) {
        if (!source.endsWith('extracts')) assert.ok(existsSync(join(DEPLOY, source)), `${name} mounts ${source}`);
      } else assert.ok(source in volumes, `${name}: volume ${source} declared`);
    }
    const nets = Array.isArray(service.networks) ? service.networks : Object.keys(service.networks ?? {});
    for (const net of nets) assert.ok(net in networks, `${name}: network ${net}`);
  }
});

test('compose.yaml: the API nodes get a configuration the service accepts, consistent with the database, the bucket and the proxy', () => {
  const { services } = compose();
  const nginx = read('scripts/deploy/nginx.conf');
  const documented = read('docs/configuration.md') + read('docs/operations.md');
  const sources = execFileSync('grep', ['-rhoE', 'CITY_[A-Z0-9_]+', join(REPO_ROOT, 'src')], { encoding: 'utf8' });
  const db = services.postgis.environment!;
  const bucket = /mc mb --ignore-existing local\/(\S+)/.exec(services['minio-init'].entrypoint!.join(' '))![1];
  const proxy = (services.loadbalancer.networks as Record<string, { ipv4_address?: string }>).backend.ipv4_address!;
  for (const name of ['api-1', 'api-2']) {
    const env = services[name].environment!;
    for (const variable of Object.keys(env)) {
      assert.ok(sources.includes(variable) || documented.includes(`\`${variable}`), `${name}: ${variable} is read by the service or documented`);
    }
    // the service starts on this configuration (the variables this version reads)
    const config = loadConfig({ ...env, CITY_DATA_DIR: '/var/lib/city-context', HOST: '0.0.0.0', PORT: '8080' });
    assert.equal(config.exports.kind, 's3');
    assert.equal(config.exports.s3?.bucket, bucket);
    assert.equal(config.exports.s3?.endpoint, 'http://minio:9000');
    assert.equal(env.CITY_EXPORT_S3_SECRET_KEY, services.minio.environment!.MINIO_ROOT_PASSWORD);
    assert.ok(config.trustedProxies.trusts(proxy), 'the load balancer is a trusted proxy');
    for (const url of [env.CITY_DATABASE_URL, env.CITY_OSM_STORE]) {
      const u = new URL(url);
      assert.equal(u.protocol, 'postgres:');
      assert.equal(u.hostname, 'postgis');
      assert.deepEqual([u.username, u.password, u.pathname.slice(1)], [db.POSTGRES_USER, db.POSTGRES_PASSWORD, db.POSTGRES_DB]);
    }
    const grace = Number(/^(\d+)s$/.exec(services[name].stop_grace_period!)![1]) * 1000;
    assert.ok(grace > config.shutdownGraceMs, 'Docker waits longer than the service drains');
    assert.match(nginx, new RegExp(`server ${name}:${config.port}\\b`), `nginx sends to ${name}`);
  }
  const upstreams = [...nginx.matchAll(/^\s*server (\S+):\d+/gm)].map((m) => m[1]);
  assert.deepEqual(upstreams, ['api-1', 'api-2']);
  assert.equal((nginx.match(/\{/g) ?? []).length, (nginx.match(/\}/g) ?? []).length, 'nginx.conf braces balance');
});
