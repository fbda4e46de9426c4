/** Zulip's bounds, reported to clients in POST /register (max_channel_folder_*_length). */
export const MAX_CHANNEL_FOLDER_NAME_LENGTH = 60;
export const MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH = 1024;
