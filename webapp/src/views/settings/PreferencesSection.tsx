import { Choice, NumberSetting, type Option, SettingsGroup, Toggle } from './controls';

/** The languages the server accepts for default_language, named in their own language. */
const LANGUAGE_CODES =
  'ar be bg bn ca cs cy da de el en en_GB eo es fa fi fr gl gu hi hu id it ja ko lt lv ml mn nl no pl pt pt_BR pt_PT ro ru si sk sr sv ta te tl tr uk uz vi zh-hans zh-hant'.split(
    ' ',
  );
const languageName = (code: string) => {
  const tag = code.replace('_', '-').replace('zh-hans', 'zh-Hans').replace('zh-hant', 'zh-Hant');
  try {
    return new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? code;
  } catch {
    return code;
  }
};
const LANGUAGES: Option[] = LANGUAGE_CODES.map((code) => ({ value: code, label: languageName(code) }));

const o = (pairs: [string | number, string][]): Option[] => pairs.map(([value, label]) => ({ value, label }));

/** #settings/preferences, grouped as Zulip groups them. */
export function PreferencesSection() {
  return (
    <>
      <SettingsGroup title="General">
        <Choice name="default_language" label="Language" options={LANGUAGES} />
        <Toggle name="twenty_four_hour_time" label="Show times in 24-hour format" />
        <Choice
          name="color_scheme"
          label="Theme"
          options={o([
            [1, 'Automatic (follow system settings)'],
            [2, 'Dark'],
            [3, 'Light'],
          ])}
        />
        <NumberSetting name="web_font_size_px" label="Message-area font size (px)" min={12} max={20} />
        <NumberSetting name="web_line_height_percent" label="Message-area line spacing (%)" min={100} max={200} step={5} />
        <Toggle name="fluid_layout_width" label="Use full width on wide screens" />
        <Toggle name="high_contrast_mode" label="High contrast mode" />
        <Choice
          name="web_animate_image_previews"
          label="Play animated images"
          options={o([
            ['always', 'Always'],
            ['on_hover', 'On hover'],
            ['never', 'Never'],
          ])}
        />
        <Toggle name="starred_message_counts" label="Show counts for starred messages" />
        <Toggle name="enter_sends" label="Enter sends the message (Shift+Enter adds a new line)" />
        <Toggle name="enable_drafts_synchronization" label="Keep drafts on the server (synchronized across devices)" />
      </SettingsGroup>
      <SettingsGroup title="Navigation">
        <Choice
          name="web_home_view"
          label="Home view"
          options={o([
            ['inbox', 'Inbox'],
            ['recent', 'Recent conversations'],
            ['all_messages', 'Combined feed'],
          ])}
        />
        <Toggle name="web_escape_navigates_to_home_view" label="Escape key navigates to the home view" />
        <Choice
          name="web_channel_default_view"
          label="Channel links in the sidebar go to"
          options={o([
            [1, 'Top topic in the channel'],
            [2, 'Channel feed'],
            [3, 'List of topics'],
            [4, 'Top unread topic in the channel'],
          ])}
        />
        <Toggle name="web_navigate_to_sent_message" label="Go to the conversation you sent a message to" />
        <Choice
          name="web_mark_read_on_scroll_policy"
          label="Mark messages as read on scroll"
          options={o([
            [1, 'Always'],
            [2, 'Only in conversation views'],
            [3, 'Never'],
          ])}
        />
        <Choice
          name="resolved_topic_notice_auto_read_policy"
          label="Automatically mark resolved topic notices as read"
          options={o([
            ['always', 'Always'],
            ['except_followed', 'Except in topics I follow'],
            ['never', 'Never'],
          ])}
        />
      </SettingsGroup>
      <SettingsGroup title="Channels and topics">
        <Choice
          name="demote_inactive_streams"
          label="Demote inactive channels"
          options={o([
            [1, 'Automatic'],
            [2, 'Always'],
            [3, 'Never'],
          ])}
        />
        <Choice
          name="web_stream_unreads_count_display_policy"
          label="Show unread counts for"
          options={o([
            [1, 'All channels'],
            [2, 'Unmuted channels and topics'],
            [3, 'No channels'],
          ])}
        />
        <Choice
          name="automatically_follow_topics_policy"
          label="Automatically follow topics"
          options={o([
            [1, 'Topics I start'],
            [2, 'Topics I send a message to'],
            [3, 'Topics I participate in'],
            [4, 'Never'],
          ])}
        />
        <Choice
          name="automatically_unmute_topics_in_muted_streams_policy"
          label="Automatically unmute topics in muted channels"
          options={o([
            [1, 'Topics I start'],
            [2, 'Topics I send a message to'],
            [3, 'Topics I participate in'],
            [4, 'Never'],
          ])}
        />
        <Toggle name="automatically_follow_topics_where_mentioned" label="Automatically follow topics where I'm mentioned" />
      </SettingsGroup>
      <SettingsGroup title="People">
        <Choice
          name="user_list_style"
          label="User list style"
          options={o([
            [1, 'Compact'],
            [2, 'Show status text'],
            [3, 'Show avatar'],
          ])}
        />
        <Toggle name="left_side_userlist" label="Show the user list in the left sidebar in narrow windows" />
        <Toggle name="receives_typing_notifications" label="Show when other users are typing" />
        <Toggle name="web_suggest_update_timezone" label="Offer to update my time zone when it changes" />
        <Toggle name="hide_ai_features" label="Hide AI features" />
      </SettingsGroup>
      <SettingsGroup title="Emoji">
        <Choice
          name="emojiset"
          label="Emoji theme"
          options={o([
            ['google', 'Google'],
            ['twitter', 'Twitter'],
            ['text', 'Plain text'],
          ])}
        />
        <Toggle name="translate_emoticons" label="Convert emoticons before sending (:) becomes 🙂)" />
        <Toggle name="display_emoji_reaction_users" label="Show who reacted to a message" />
      </SettingsGroup>
    </>
  );
}
