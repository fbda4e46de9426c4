import { errors } from '../../errors';
import { Field, globalTime, payloadOf } from './payload';
import type { Integration, WebhookMessage, WebhookRequest } from './types';

/** Grafana alerts: unified alerting (Grafana 8 and later, `alerts`) and the legacy format (Grafana 7). */
const status = (icon: string, state: string) => `${icon} **${state.toUpperCase()}**\n\n`;
const ZERO_TIME = '0001-01-01T00:00:00Z';

function oneOf(field: Field, values: string[]): string {
  const value = field.str();
  if (!values.includes(value)) throw errors.badRequest(`${field.name} is not one of [${values.map((v) => `'${v}'`).join(', ')}]`);
  return value;
}

const pythonStr = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : value === null
      ? 'None'
      : typeof value === 'boolean'
        ? value
          ? 'True'
          : 'False'
        : typeof value === 'number'
          ? String(value)
          : JSON.stringify(value);

function unifiedAlert(alert: Field): WebhookMessage {
  const state = oneOf(alert.get('status'), ['firing', 'resolved']);
  let body = status(state === 'firing' ? ':alert:' : ':checkbox:', state);
  const labels = alert.get('labels');
  const alertname = labels.opt('alertname')?.str();
  let topic: string;
  if (alertname) {
    topic = `[${alertname}]`;
    body += `**${alertname}**\n\n`;
  } else {
    topic = `[${alert.get('fingerprint').str()}]`;
  }
  body += `This alert was fired at ${globalTime(alert.get('startsAt').str())}.`;
  const ends = alert.get('endsAt').str();
  if (ends !== ZERO_TIME) body += `\n\nThis alert was resolved at ${globalTime(ends)}.`;
  if (labels.truthy())
    body += `\n\nLabels:\n${labels
      .entries()
      .map(([k, v]) => `- ${k}: ${v.str()}\n`)
      .join('')}\n`;
  const values = alert.opt('values');
  const valueString = alert.opt('valueString');
  if (values?.truthy())
    body += `Values:\n${values
      .entries()
      .map(([k, v]) => `- ${k}: ${pythonStr(v.value)}\n`)
      .join('')}\n`;
  else if (valueString?.truthy()) body += `Values:\n${valueString.str()}\n\n`;
  const annotations = alert.opt('annotations');
  if (annotations?.truthy())
    body += `Annotations:\n${annotations
      .entries()
      .map(([k, v]) => `- ${k}: ${v.str()}\n`)
      .join('')}`;
  for (const [key, label] of [
    ['generatorURL', 'Generator'],
    ['silenceURL', 'Silence'],
    ['imageURL', 'Image'],
  ] as const) {
    const url = alert.opt(key);
    if (url?.truthy()) body += `\n[${label}](${url.str()})`;
  }
  return { topic, body: `${body}\n`, eventType: state };
}

function legacyAlert(p: Field): WebhookMessage {
  const topic = p.get('title').str();
  let matches = '';
  const evalMatches = p.opt('evalMatches');
  if (evalMatches) for (const match of evalMatches.list()) matches += `**${match.get('metric').str()}:** ${pythonStr(match.get('value').value)}\n`;
  const text = p.has('message') ? `${p.get('message').str()}\n\n` : '';
  const state = oneOf(p.get('state'), ['no_data', 'paused', 'alerting', 'ok', 'pending', 'unknown']);
  const icon = state === 'alerting' ? ':alert:' : state === 'ok' ? ':squared_ok:' : ':info:';
  let body = `${status(icon, state)}[${p.get('ruleName').str()}](${p.get('ruleUrl').str()})\n\n${text}${matches}`;
  if (p.has('imageUrl')) body += `\n[Click to view visualization](${p.get('imageUrl').str()})`;
  return { topic, body: body.trim(), eventType: state };
}

export const grafana: Integration = {
  name: 'grafana',
  displayName: 'Grafana',
  allEventTypes: ['ok', 'pending', 'alerting', 'paused', 'firing', 'resolved'],
  handle({ payload }: WebhookRequest): WebhookMessage[] {
    const p = payloadOf(payload);
    if (p.has('alerts')) return p.get('alerts').list().map(unifiedAlert);
    return [legacyAlert(p)];
  },
};
