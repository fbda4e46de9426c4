import { runCli } from './operator/run';

// A reader that stops early (`| head -1`) closes the pipe: the command still finishes, and what it
// would have printed after that is dropped instead of crashing the process with EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

// Operator commands (npm run cli -- help). The work is in runCli, so tests call it directly.
runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
