import type { Scenario } from '../scenario';

/**
 * GET /api/v1/users/me with Basic auth: the cheapest authenticated request, so it measures the fixed
 * cost every REST call pays (HTTP, routing, authentication, envelope) against bare node:http.
 */
export const scenario: Scenario = {
  name: 'users-me',
  description: 'GET /api/v1/users/me (Basic auth) against a bare node:http server with a body of the same size',
  async run(ctx) {
    const parley = await ctx.startParley();
    try {
      const url = `${parley.url}/api/v1/users/me`;
      const headers = { authorization: parley.ownerAuth };
      const probe = await fetch(url, { headers });
      const body = await probe.text();
      if (probe.status !== 200) throw new Error(`GET /users/me answered ${probe.status}: ${body}`);

      const baselineServer = await ctx.startBaseline(body);
      try {
        const [baseline, measured] = await ctx.measure([
          { label: 'node:http baseline', options: { url: `${baselineServer.url}/api/v1/users/me`, headers, server: baselineServer } },
          { label: 'Parley', options: { url, headers, server: parley } },
        ]);
        return {
          results: [baseline, measured],
          goals: [{ label: 'Parley / baseline', value: measured.rps / baseline.rps, atLeast: 0.5 }],
          notes: [`response body: ${Buffer.byteLength(body)} bytes`],
        };
      } finally {
        await baselineServer.stop();
      }
    } finally {
      await parley.stop();
    }
  },
};
