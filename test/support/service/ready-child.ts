/**
 * A second process for tests that need one to kill: a TypeScript module body run by node with tsx,
 * resolved once it has printed `ready` on stdout (then it keeps running until killed).
 */
import { spawn, type ChildProcess } from 'node:child_process';

export async function readyChild(source: string, ready: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `${source}\nsetInterval(() => {}, 1000);`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((ok, fail) => {
    child.stdout!.on('data', (d: Buffer) => {
      if (String(d).includes(ready)) ok();
    });
    child.once('exit', () => fail(new Error('the child exited early')));
  });
  return child;
}
