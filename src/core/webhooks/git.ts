import { endsWithPunctuation } from './payload';

/** The message formats Zulip's git integrations (GitHub, GitLab, ...) share. */
export const topicWithBranch = (repo: string, branch: string) => `${repo} / ${branch}`;
export const topicWithPrOrIssue = (repo: string, type: string, id: number, title: string) => `${repo} / ${type} #${id} ${title}`;

export const EMPTY_SHA = '0000000000000000000000000000000000000000';
const COMMITS_LIMIT = 20;
const COMMITTERS_LIMIT = 3;

export interface CommitData {
  name: string;
  sha: string;
  url: string | null;
  message: string;
}

export const shortSha = (sha: string) => sha.slice(0, 11);

function commitsContent(commits: CommitData[]): string {
  let text = '';
  for (const commit of commits.slice(0, COMMITS_LIMIT)) {
    text += `* ${commit.message.split('\n')[0]} ([${shortSha(commit.sha)}](${commit.url}))\n`;
  }
  if (commits.length > COMMITS_LIMIT) text += `[and ${commits.length - COMMITS_LIMIT} more commit(s)]`;
  return text.trimEnd();
}

/** Committers by number of commits, ties by name; past three, the rest as "others". */
function committers(commits: CommitData[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const commit of commits) counts.set(commit.name, (counts.get(commit.name) ?? 0) + 1);
  let items = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  if (items.length > COMMITTERS_LIMIT) {
    const others = items.slice(COMMITTERS_LIMIT).reduce((sum, [, n]) => sum + n, 0);
    items = [...items.slice(0, COMMITTERS_LIMIT), ['others', others]];
  }
  return items;
}

export function pushCommitsMessage(
  userName: string,
  compareUrl: string | null,
  branch: string,
  commits: CommitData[],
  options: { deleted?: boolean; forcePush?: boolean } = {},
): string {
  if (commits.length === 0 && options.deleted) return `${userName} [deleted](${compareUrl}) the branch ${branch}.`;
  const pushType = options.forcePush ? 'force pushed' : 'pushed';
  if (commits.length === 0) {
    return compareUrl ? `${userName} [${pushType}](${compareUrl}) the branch ${branch}.` : `${userName} ${pushType} the branch ${branch}.`;
  }
  const count = `${commits.length} commit${commits.length > 1 ? 's' : ''}`;
  const pushed = compareUrl ? `[${pushType}](${compareUrl}) ${count}` : `${pushType} ${count}`;
  const base = `${userName} ${pushed} to branch ${branch}.`;
  const items = committers(commits);
  if (items.length === 1 && items[0][0] === userName) return `${base}\n\n${commitsContent(commits)}`.trimEnd();
  let details = `${items[0][0]} (${items[0][1]})`;
  for (const [name, n] of items.slice(1, -1)) details = `${details}, ${name} (${n})`;
  if (items.length > 1) details = `${details} and ${items[items.length - 1][0]} (${items[items.length - 1][1]})`;
  return `${base} Commits by ${details}.\n\n${commitsContent(commits)}`.trimEnd();
}

export const removeBranchMessage = (userName: string, branch: string) => `${userName} deleted branch ${branch}.`;

export function pushTagMessage(userName: string, tag: string, tagUrl: string | null, action = 'pushed'): string {
  const message = `${userName} ${action} tag ${tagUrl ? `[${tag}](${tagUrl})` : tag}`;
  return endsWithPunctuation(tag) ? message : `${message}.`;
}

export interface PrOrIssue {
  userName: string;
  action: string;
  url: string;
  number?: number;
  targetBranch?: string | null;
  baseBranch?: string | null;
  message?: string | null;
  assignee?: string | null;
  /** Several assignees, by display name. */
  assignees?: string[];
  assigneeUpdated?: string | null;
  type?: string;
  title?: string | null;
}

/** Zulip's get_pull_request_event_message (issues use it with type "issue"). */
export function prOrIssueMessage(m: PrOrIssue): string {
  const type = m.type ?? 'PR';
  const id = m.number === undefined ? '' : ` #${m.number}`;
  const title = m.title == null ? '' : ` ${m.title}`;
  const assigneePart = m.action === 'assigned' ? ` ${m.assigneeUpdated} to` : m.action === 'unassigned' ? ` ${m.assigneeUpdated} from` : '';
  const action = m.action === 'approval' ? 'added their approval for' : m.action === 'unapproval' ? 'removed their approval for' : m.action;
  let main = `${m.userName} ${action}${assigneePart} [${type}${id}${title}](${m.url})`;
  const branches = Boolean(m.targetBranch && m.baseBranch);
  if (branches) main = `${main} from \`${m.targetBranch}\` to \`${m.baseBranch}\``;
  const assignees = m.assignees && m.assignees.length > 0 ? m.assignees : null;
  if (assignees) {
    const names = assignees.length === 1 ? assignees[0] : `${assignees.slice(0, -1).join(', ')} and ${assignees[assignees.length - 1]}`;
    main = `${main} (assigned to ${names})`;
  } else if (m.assignee) {
    main = `${main} (assigned to ${m.assignee})`;
  }
  const punctuation = m.message ? ':' : '.';
  if (assignees || m.assignee || branches || m.title == null || !endsWithPunctuation(m.title)) main = `${main}${punctuation}`;
  if (m.message) main += `\n\n~~~ quote\n${m.message}\n~~~`;
  return main.trimEnd();
}

export const issueMessage = (m: Omit<PrOrIssue, 'type'>) => prOrIssueMessage({ ...m, type: 'issue' });

export const setupMessage = (integration: string, userName?: string) =>
  `${integration} webhook has been successfully configured${userName ? ` by ${userName}` : ''}.`;

/** Zulip's is_branch_name_notifiable: the `branches` URL parameter lists the branches to report. */
export const branchIsNotifiable = (branch: string, branches: string | undefined) =>
  branches === undefined || branches.split(',').some((b) => b.trim() === branch);
