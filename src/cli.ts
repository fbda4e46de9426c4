import { runCli } from './operator/run';

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
