import type { UrlOption } from './types';

/** `branches`: the comma-separated branches whose pushes are reported (all when absent). */
export const BRANCHES: UrlOption = { key: 'branches', label: 'Branches to report (comma-separated)', inputType: 'text' };

/** `ignore_private_repositories=true`: events from private repositories are dropped. */
export const IGNORE_PRIVATE_REPOSITORIES: UrlOption = {
  key: 'ignore_private_repositories',
  label: 'Skip events from private repositories',
  inputType: 'checkbox',
};
