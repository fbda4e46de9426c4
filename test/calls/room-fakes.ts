import { createHash } from 'node:crypto';
import http from 'node:http';
import { close, listen } from './fakes';

/**
 * Loopback stand-ins for the providers whose calls are rooms: Constructor Groups' XAPI (its bearer
 * token built from the access and secret keys, one default room per creator) and Nextcloud Talk's
 * OCS API (Basic credentials, the OCS-APIRequest header, Talk's 255-character name limit), each
 * under a path as real installations are.
 */

type Res = http.ServerResponse;

function json(res: Res, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

export type RoomFakeMode = 'ok' | 'server-error' | 'no-room' | 'hang-up';

export interface FakeConstructorGroups {
  /** The XAPI base to configure. */
  url: string;
  /** Bodies of the requests whose token was right. */
  requests: Record<string, unknown>[];
  /** Requests refused for a wrong token. */
  refused: number;
  /** The secret key tokens are checked against (another one stands for a rotated key). */
  secretKey: string;
  mode: RoomFakeMode;
  close(): Promise<void>;
}

export async function startFakeConstructorGroups(accessKey: string, secretKey: string): Promise<FakeConstructorGroups> {
  const fake = { requests: [], refused: 0, secretKey, mode: 'ok' } as unknown as FakeConstructorGroups;
  /** Rooms by name, with their creator and guid. */
  const rooms = new Map<string, { creator: string; guid: string }>();
  const server = http.createServer(async (req, res) => {
    const text = await readBody(req);
    if (req.method !== 'POST' || req.url !== '/api/groups/xapi/room/default') return json(res, 404, { error: 'Not found' });
    const expected = `Bearer ${accessKey}|${createHash('sha256').update(`${accessKey}|${fake.secretKey}`).digest('hex')}`;
    if (req.headers.authorization !== expected) {
      fake.refused += 1;
      return json(res, 401, { error: 'Unauthorized' });
    }
    if (fake.mode === 'hang-up') return req.socket.destroy();
    if (fake.mode === 'server-error') return json(res, 500, { error: 'Internal error' });
    const body = JSON.parse(text) as { creator_email: string; name: string; fallback_name: string };
    fake.requests.push(body);
    if (fake.mode === 'no-room') return json(res, 200, { room_guid: null });
    const existing = [...rooms.entries()].find(([, room]) => room.creator === body.creator_email);
    let name = existing?.[0];
    if (!name) {
      // The room's name is taken by another creator's room: the fallback names it.
      name = rooms.has(body.name) ? body.fallback_name : body.name;
      rooms.set(name, { creator: body.creator_email, guid: `room-${rooms.size + 1}` });
    }
    const { guid } = rooms.get(name)!;
    json(res, 200, { room_guid: guid, name, url: `https://groups.example/room/${guid}` });
  });
  fake.url = `${await listen(server)}/api/groups/xapi`;
  fake.close = () => close(server);
  return fake;
}

export interface FakeNextcloud {
  /** The server URL to configure (Nextcloud installed under /nextcloud/). */
  url: string;
  /** Bodies of the conversations created. */
  rooms: { roomType: unknown; roomName: unknown }[];
  /** Requests refused for wrong credentials or a missing OCS-APIRequest header. */
  refused: number;
  password: string;
  mode: RoomFakeMode;
  close(): Promise<void>;
}

const ocs = (status: number, data: unknown) => ({ ocs: { meta: { status: status < 300 ? 'ok' : 'failure', statuscode: status, message: '' }, data } });

export async function startFakeNextcloud(username: string, password: string): Promise<FakeNextcloud> {
  const fake = { rooms: [], refused: 0, password, mode: 'ok' } as unknown as FakeNextcloud;
  const server = http.createServer(async (req, res) => {
    const text = await readBody(req);
    if (req.method !== 'POST' || req.url !== '/nextcloud/ocs/v2.php/apps/spreed/api/v4/room') return json(res, 404, ocs(404, []));
    const basic = `Basic ${Buffer.from(`${username}:${fake.password}`).toString('base64')}`;
    if (req.headers['ocs-apirequest'] !== 'true' || req.headers.authorization !== basic) {
      fake.refused += 1;
      return json(res, 401, ocs(401, []));
    }
    if (fake.mode === 'hang-up') return req.socket.destroy();
    if (fake.mode === 'server-error') {
      res.statusCode = 503;
      return res.end('<html>Service Unavailable</html>');
    }
    const body = JSON.parse(text) as { roomType: unknown; roomName: unknown };
    if (typeof body.roomName !== 'string' || body.roomName === '' || Array.from(body.roomName).length > 255) return json(res, 400, ocs(400, { error: 'name' }));
    fake.rooms.push(body);
    if (fake.mode === 'no-room') return json(res, 201, ocs(201, {}));
    json(res, 201, ocs(201, { token: `tok${fake.rooms.length}x9q`, type: body.roomType, name: body.roomName }));
  });
  fake.url = `${await listen(server)}/nextcloud`;
  fake.close = () => close(server);
  return fake;
}
