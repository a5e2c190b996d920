/**
 * The subscribers' group-chat invitation. The content files have no such field yet; until they
 * do, this is the one place to set it. `null` shows subscribers an honest "being set up" note
 * instead of a link.
 */
export const GROUP_CHAT_URL: string | null = null;
