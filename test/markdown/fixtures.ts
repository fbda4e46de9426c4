import { buildRenderContext } from '../../src/core/markdown';

/** A small organization for renderer tests: two users, a group, two channels, a custom emoji. */
export const ctx = buildRenderContext({
  realmUrl: 'https://chat.example.com',
  users: [
    { id: 31, fullName: 'Example User', isActive: true },
    { id: 32, fullName: 'Ada <Admin>', isActive: true },
    { id: 5, fullName: 'Old Timer', isActive: false },
  ],
  groups: [
    { id: 17, name: 'support', deactivated: false },
    { id: 18, name: 'retired', deactivated: true },
  ],
  channels: [
    { id: 9, name: 'announce' },
    { id: 10, name: 'general chat' },
  ],
  realmEmoji: [{ id: 1, name: 'green_tick', sourceUrl: '/user_avatars/1/emoji/images/abc.png' }],
});
