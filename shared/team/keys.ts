/** The keys of an account's team: its users, their e-mail claims, lockouts, one-time links and audit log. */
import { accountPartition, type ItemKey, type ListKey } from '../db/keys.ts';

export const teamKeys = {
  /** A dashboard user, by its id; listed under its account in gsi1 by e-mail. */
  user: (userId: string): ItemKey => ({ pk: `USER#${userId}`, sk: 'USER' }),
  /** A user's place in its account's list: by e-mail, so the list reads in order. */
  inUserList: (developerId: number, email: string): ListKey => ({
    gsi1pk: `${accountPartition(developerId)}#USERS`,
    gsi1sk: `USER#${email}`,
  }),
  /** The gsi1 partition and sort prefix the users of an account are listed under. */
  userList: (developerId: number) => ({
    partition: `${accountPartition(developerId)}#USERS`,
    prefix: 'USER#',
  }),
  /**
   * An e-mail address's claim: which user it signs in as. One per address in the stage, written in
   * the same transaction as the user, so two users never share an address.
   */
  email: (email: string): ItemKey => ({ pk: `USER_EMAIL#${email.toLowerCase()}`, sk: 'USER_EMAIL' }),
  /**
   * How many admins an account has: every change that could take the last one away (removal, a new
   * role) is a transaction on the condition that more than one is left.
   */
  admins: (developerId: number): ItemKey => ({ pk: accountPartition(developerId), sk: 'USER_ADMINS' }),
  /**
   * The failed sign-ins of one e-mail address, by the keyed hash of the address (whether or not a
   * user has it, so the lock tells nobody which addresses are users').
   */
  lock: (emailHash: string): ItemKey => ({ pk: `USER_LOCK#${emailHash}`, sk: 'USER_LOCK' }),
  /** A one-time link (set a password, sign in), by the keyed hash of its token. */
  link: (tokenHash: string): ItemKey => ({ pk: `USER_LINK#${tokenHash}`, sk: 'USER_LINK' }),
  /** A sign-in waiting for its TOTP code, by the keyed hash of the challenge the code form carries. */
  challenge: (tokenHash: string): ItemKey => ({ pk: `USER_CHALLENGE#${tokenHash}`, sk: 'USER_CHALLENGE' }),
  /** One entry of an account's audit log: newest first when its partition is read backwards. */
  audit: (developerId: number, at: string, id: string): ItemKey => ({
    pk: `${accountPartition(developerId)}#AUDIT`,
    sk: `AUDIT#${at}#${id}`,
  }),
  /**
   * The mark of one submission already written to the audit log (a refund form sent twice under its
   * key): its entry is written once.
   */
  auditOnce: (developerId: number, action: string, key: string): ItemKey => ({
    pk: `${accountPartition(developerId)}#AUDIT_ONCE#${action}#${key}`,
    sk: 'AUDIT_ONCE',
  }),
  /** The partition and sort prefix of an account's audit log. */
  auditLog: (developerId: number) => ({
    partition: `${accountPartition(developerId)}#AUDIT`,
    prefix: 'AUDIT#',
  }),
};
