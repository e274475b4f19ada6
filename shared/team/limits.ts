/** The numbers of dashboard sign-in that route descriptions quote too (no code of its own imports). */

/** 10 failed sign-ins in a row for one e-mail address lock it, from any client address, for 15 minutes. */
export const userFailureLimit = 10;
export const userLockMs = 15 * 60_000;

/** How long the code form of a sign-in waits for its TOTP code. */
export const challengeLifetimeMs = 5 * 60_000;
