import { useEffect, useMemo, useRef, useState } from 'react';
import { lookup } from '../../app/lookup';
import { navigate, useRoute } from '../../app/route';
import { searchLookup } from '../../app/search-lookup';
import { narrowHash } from '../../narrow/hash';
import { canonicalOperator } from '../../narrow/narrow';
import { narrowToSearch, parseSearch, tokenize } from '../../narrow/search';
import { getApp, useApp } from '../../state/store';
import { loadTopics } from '../sidebar/load-topics';
import { suggest } from './suggestions';
import '../../styles/search.css';

/** Narrows the search box shows as text: those the narrow header cannot say in a few words. */
const SIMPLE = new Set(['channel', 'topic', 'dm', 'is']);

/** The search box: Zulip's operators, suggestions as one types, Enter opens the search narrow. */
export function SearchBox() {
  const route = useRoute();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const topics = useApp((s) => s.topics);
  const users = useApp((s) => s.users);

  // The box says what the open search is, and empties when another view opens.
  useEffect(() => {
    if (route.view !== 'narrow' || route.narrow.every((t) => SIMPLE.has(canonicalOperator(t.operator)) && !t.negated)) setText('');
    else setText(narrowToSearch(route.narrow, searchLookup));
  }, [route]);

  // Topics of the channel named in the query, for topic: suggestions.
  useEffect(() => {
    const channelToken = tokenize(text).find((t) => /^(channel|stream):/i.test(t));
    const id = channelToken ? searchLookup.channelId(channelToken.replace(/^\w+:/, '')) : undefined;
    if (id !== undefined) void loadTopics(id);
  }, [text]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: topics and users change what is suggested.
  const suggestions = useMemo(() => (open ? suggest(text, getApp()) : []), [text, open, topics, users]);

  const go = (query: string) => {
    const narrow = parseSearch(query, searchLookup);
    setOpen(false);
    setActive(-1);
    input.current?.blur();
    navigate(narrowHash(narrow, lookup));
  };

  const pick = (index: number) => {
    const s = suggestions[index];
    if (!s) return;
    if (s.query.endsWith(':')) {
      setText(s.query);
      setActive(-1);
      input.current?.focus();
    } else go(s.query);
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((i) => Math.min(i + 1, suggestions.length - 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => Math.max(i - 1, -1));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (active >= 0) pick(active);
      else if (text.trim()) go(text);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      if (open && suggestions.length > 0) setOpen(false);
      else {
        setText('');
        input.current?.blur();
      }
    } else if (e.key === 'Tab' && active >= 0 && suggestions[active]) {
      e.preventDefault();
      setText(`${suggestions[active].query}${suggestions[active].query.endsWith(':') ? '' : ' '}`);
      setActive(-1);
    }
  };

  const expanded = open && suggestions.length > 0;
  return (
    <search className="search-box">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) go(text);
        }}
      >
        <input
          id="search"
          ref={input}
          type="search"
          aria-label="Search"
          placeholder="Search"
          autoComplete="off"
          spellCheck={false}
          aria-autocomplete="list"
          aria-controls="search-suggestions"
          aria-activedescendant={expanded && active >= 0 ? `search-suggestion-${active}` : undefined}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          // Closed a moment later, so a click on a suggestion lands first; not if the box has
          // its focus back by then (searching again right after a search).
          onBlur={() => setTimeout(() => document.activeElement !== input.current && setOpen(false), 150)}
          onKeyDown={onKeyDown}
        />
      </form>
      {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the ARIA listbox of a search box's suggestions */}
      <ul id="search-suggestions" role="listbox" aria-label="Search suggestions" hidden={!expanded}>
        {suggestions.map((s, i) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the search box's arrow keys and Enter choose options
          // biome-ignore lint/a11y/useFocusableInteractive: options are chosen from the search box (aria-activedescendant)
          <li
            key={s.query}
            id={`search-suggestion-${i}`}
            // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the ARIA listbox pattern
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(i)}
            onMouseEnter={() => setActive(i)}
          >
            <span className="suggestion-label">{s.label}</span>
            {s.detail ? <span className="suggestion-detail">{s.detail}</span> : null}
          </li>
        ))}
      </ul>
    </search>
  );
}
