/**
 * What the sign-in form says when its address is blocked after too many failed sign-ins, in English
 * and Spanish (the form's other words are in words.ts).
 */
import type { Lang } from '../core/messages.ts';

export interface SignInWords {
  /** The wait, in whole minutes (at least 1), before the form takes a key again. */
  tooManyFailures(minutes: number): string;
}

export const signInWords: Record<Lang, SignInWords> = {
  en: {
    tooManyFailures: (minutes) =>
      `Too many failed sign-ins from this address. Wait ${minutes === 1 ? '1 minute' : `${minutes} minutes`} and try again; until then no key is accepted here.`,
  },
  es: {
    tooManyFailures: (minutes) =>
      `Demasiados inicios de sesión fallidos desde esta dirección. Espera ${minutes === 1 ? '1 minuto' : `${minutes} minutos`} e inténtalo de nuevo; hasta entonces no se acepta ninguna clave aquí.`,
  },
};
