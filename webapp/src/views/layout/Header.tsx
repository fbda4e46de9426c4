import { homeHash } from '../../app/route';
import { useApp } from '../../state/store';
import { Avatar } from '../people/Avatar';
import { SearchBox } from '../search/SearchBox';
import { UserMenu } from './UserMenu';

/** The top bar: the organization, the drawer buttons on phones, search and the user's menu. */
export function Header({
  leftOpen,
  rightOpen,
  onToggleLeft,
  onToggleRight,
  peopleButton = true,
}: {
  leftOpen: boolean;
  rightOpen: boolean;
  onToggleLeft: () => void;
  onToggleRight: () => void;
  /** False when the people list is in the left sidebar (left_side_userlist). */
  peopleButton?: boolean;
}) {
  const name = useApp((s) => String(s.register.realm_name ?? 'Parley'));
  const icon = useApp((s) => s.register.realm_icon_url as string | undefined);
  // The logo leads to the user's home view (web_home_view), as in Zulip.
  const home = homeHash(useApp((s) => s.settings));
  return (
    <header className="top-bar">
      <button
        type="button"
        className="drawer-button left"
        aria-label="Conversations"
        aria-expanded={leftOpen}
        aria-controls="left-sidebar"
        onClick={onToggleLeft}
      >
        ☰
      </button>
      <a className="realm" href={home} title="Home view">
        <Avatar url={icon} name={name} size="small" />
        <span className="realm-name">{name}</span>
      </a>
      <SearchBox />
      {peopleButton ? (
        <button
          type="button"
          className="drawer-button right"
          aria-label="People"
          aria-expanded={rightOpen}
          aria-controls="right-sidebar"
          onClick={onToggleRight}
        >
          👥
        </button>
      ) : null}
      <UserMenu />
    </header>
  );
}
