/**
 * What the pages before a session say (sign-in, its code step, one-time links), in English and
 * Spanish.
 */
import type { Lang } from '../core/messages.ts';

export interface SignInWords {
  signInTitle: string;
  signInIntro: string;
  email: string;
  password: string;
  signIn: string;
  /** A wrong e-mail or password: never which of the two. */
  wrongCredentials: string;
  /** The wait, in whole minutes (at least 1), before the form takes a sign-in from this address again. */
  tooManyFailures(minutes: number): string;
  /** The e-mail address locked after 10 failures in a row. */
  userLocked(minutes: number): string;
  codeTitle: string;
  codeIntro: string;
  code: string;
  codeHelp: string;
  verify: string;
  wrongCode: string;
  /** The code step waited too long, or its sign-in is no longer valid. */
  challengeExpired: string;
  setPasswordTitle: string;
  setPasswordIntro(email: string): string;
  newPassword: string;
  passwordHelp: string;
  confirmPassword: string;
  setPassword: string;
  passwordTooShort: string;
  passwordTooLong: string;
  passwordsDiffer: string;
  linkSignInTitle: string;
  linkSignInIntro(email: string): string;
  continueAs: string;
  linkGoneTitle: string;
  linkGone: string;
  toSignIn: string;
}

export const signInWords: Record<Lang, SignInWords> = {
  en: {
    signInTitle: 'Sign in to the cobro dashboard',
    signInIntro:
      'Sign in with your e-mail address and password. An admin of your account invites you; your invitation e-mail has the link to set your password.',
    email: 'E-mail address',
    password: 'Password',
    signIn: 'Sign in',
    wrongCredentials: 'Wrong e-mail address or password.',
    tooManyFailures: (minutes) =>
      `Too many failed sign-ins from this address. Wait ${minutes === 1 ? '1 minute' : `${minutes} minutes`} and try again; until then no sign-in is accepted here.`,
    userLocked: (minutes) =>
      `Too many failed sign-ins for this e-mail address: it is locked for ${minutes === 1 ? '1 more minute' : `${minutes} more minutes`}, whatever password is sent.`,
    codeTitle: 'Two-factor sign-in',
    codeIntro: 'Enter the 6-digit code your authenticator app shows for cobro.',
    code: 'Code',
    codeHelp: 'A new code every 30 seconds; each code works once.',
    verify: 'Verify',
    wrongCode: 'That code is not right (or was used already). Try the code your app shows now.',
    challengeExpired: 'This sign-in waited too long for its code. Sign in again.',
    setPasswordTitle: 'Set your password',
    setPasswordIntro: (email) => `Choose the password you will sign in with as ${email}.`,
    newPassword: 'New password',
    passwordHelp: 'At least 12 characters. A passphrase of a few words is easy to type and hard to guess.',
    confirmPassword: 'The same password again',
    setPassword: 'Set password and sign in',
    passwordTooShort: 'The password needs at least 12 characters.',
    passwordTooLong: 'The password takes at most 256 characters.',
    passwordsDiffer: 'The two passwords differ.',
    linkSignInTitle: 'Sign in with this link',
    linkSignInIntro: (email) => `This one-time link signs you in as ${email}.`,
    continueAs: 'Sign in',
    linkGoneTitle: 'This link no longer works',
    linkGone:
      'This link was used already or has expired. Ask an admin of your account for a new one (or sign in, if you have set your password).',
    toSignIn: 'To the sign-in form',
  },
  es: {
    signInTitle: 'Inicia sesión en el panel de cobro',
    signInIntro:
      'Inicia sesión con tu correo electrónico y tu contraseña. Un administrador de tu cuenta te invita; el correo de invitación trae el enlace para elegir tu contraseña.',
    email: 'Correo electrónico',
    password: 'Contraseña',
    signIn: 'Iniciar sesión',
    wrongCredentials: 'Correo electrónico o contraseña incorrectos.',
    tooManyFailures: (minutes) =>
      `Demasiados inicios de sesión fallidos desde esta dirección. Espera ${minutes === 1 ? '1 minuto' : `${minutes} minutos`} e inténtalo de nuevo; hasta entonces no se acepta ningún inicio de sesión aquí.`,
    userLocked: (minutes) =>
      `Demasiados inicios de sesión fallidos para este correo: queda bloqueado ${minutes === 1 ? '1 minuto más' : `${minutes} minutos más`}, sea cual sea la contraseña.`,
    codeTitle: 'Inicio de sesión en dos pasos',
    codeIntro: 'Escribe el código de 6 cifras que tu aplicación de autenticación muestra para cobro.',
    code: 'Código',
    codeHelp: 'Un código nuevo cada 30 segundos; cada código sirve una vez.',
    verify: 'Verificar',
    wrongCode: 'Ese código no es correcto (o ya se usó). Prueba el código que muestra ahora tu aplicación.',
    challengeExpired: 'Este inicio de sesión esperó demasiado su código. Inicia sesión de nuevo.',
    setPasswordTitle: 'Elige tu contraseña',
    setPasswordIntro: (email) => `Elige la contraseña con la que iniciarás sesión como ${email}.`,
    newPassword: 'Contraseña nueva',
    passwordHelp:
      'Al menos 12 caracteres. Una frase de unas pocas palabras es fácil de escribir y difícil de adivinar.',
    confirmPassword: 'La misma contraseña otra vez',
    setPassword: 'Guardar la contraseña e iniciar sesión',
    passwordTooShort: 'La contraseña necesita al menos 12 caracteres.',
    passwordTooLong: 'La contraseña admite como máximo 256 caracteres.',
    passwordsDiffer: 'Las dos contraseñas no coinciden.',
    linkSignInTitle: 'Inicia sesión con este enlace',
    linkSignInIntro: (email) => `Este enlace de un solo uso inicia tu sesión como ${email}.`,
    continueAs: 'Iniciar sesión',
    linkGoneTitle: 'Este enlace ya no sirve',
    linkGone:
      'Este enlace ya se usó o caducó. Pide uno nuevo a un administrador de tu cuenta (o inicia sesión, si ya elegiste tu contraseña).',
    toSignIn: 'Al formulario de inicio de sesión',
  },
};
