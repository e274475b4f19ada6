/**
 * What the signed-in user's own profile says (profile-views.ts): the password change and the TOTP
 * second factor, in English and Spanish; the type refuses a page that forgets a word in either.
 */
import type { Lang } from '../core/messages.ts';

export interface ProfileWords {
  title: string;
  accountTitle: string;
  email: string;
  role: string;
  twoFactor: string;
  on: string;
  off: string;
  passwordTitle: string;
  passwordIntro: string;
  /** A user signed in by a one-time link, who has not set a password yet. */
  noPasswordYet: string;
  currentPassword: string;
  newPassword: string;
  passwordHelp: string;
  confirmPassword: string;
  changePassword: string;
  wrongPassword: string;
  passwordTooShort: string;
  passwordTooLong: string;
  passwordsDiffer: string;
  passwordChanged: string;
  twoFactorOnIntro: string;
  twoFactorOffIntro: string;
  setUp: string;
  removeHelp: string;
  /** Turning the factor off asks for the password: a user without one sets it first. */
  removeNeedsPassword: string;
  turnOff: string;
  alreadyOn: string;
  enrolTitle: string;
  scanStep: string;
  qrLabel(email: string): string;
  keyStep: string;
  codeStep: string;
  code: string;
  codeHelp: string;
  turnOn: string;
  wrongCode: string;
  noEnrolment: string;
  backToProfile: string;
  twoFactorTurnedOn: string;
  twoFactorTurnedOff: string;
}

export const profileWords: Record<Lang, ProfileWords> = {
  en: {
    title: 'Your profile',
    accountTitle: 'You',
    email: 'E-mail address',
    role: 'Role',
    twoFactor: 'Two-factor sign-in',
    on: 'On',
    off: 'Off',
    passwordTitle: 'Change your password',
    passwordIntro: 'Changing it signs you out everywhere else; this session goes on.',
    noPasswordYet:
      'You have no password yet (you signed in with a one-time link): set one to sign in with your e-mail address.',
    currentPassword: 'Current password',
    newPassword: 'New password',
    passwordHelp: 'At least 12 characters. A passphrase of a few words is easy to type and hard to guess.',
    confirmPassword: 'The same new password again',
    changePassword: 'Change password',
    wrongPassword: 'That is not your current password; nothing was changed.',
    passwordTooShort: 'The new password needs at least 12 characters.',
    passwordTooLong: 'The new password takes at most 256 characters.',
    passwordsDiffer: 'The two new passwords differ.',
    passwordChanged: 'Your password was changed. Every other session of yours was signed out.',
    twoFactorOnIntro:
      'On: after your password, signing in asks for the 6-digit code your authenticator app shows. Live mode needs it.',
    twoFactorOffIntro:
      'Off. Live mode needs it: after your password, signing in then asks for the 6-digit code an authenticator app on your phone shows (any app for time-based codes).',
    setUp: 'Set up two-factor sign-in',
    removeHelp:
      'Your password, to confirm. Without two-factor sign-in this session goes back to test mode and live mode is closed to you.',
    removeNeedsPassword: 'Set a password above first: turning two-factor sign-in off asks for it.',
    turnOff: 'Turn off two-factor sign-in',
    alreadyOn:
      'Two-factor sign-in is on already. To move it to another app, turn it off first, then set it up again.',
    enrolTitle: 'Set up two-factor sign-in',
    scanStep: 'Scan this QR code with your authenticator app.',
    qrLabel: (email) => `QR code that adds cobro for ${email} to an authenticator app`,
    keyStep: 'Or type this key into the app (a time-based key):',
    codeStep: 'Enter the 6-digit code the app now shows for cobro.',
    code: 'Code',
    codeHelp: 'A new code every 30 seconds.',
    turnOn: 'Turn on two-factor sign-in',
    wrongCode:
      'That code is not right. Enter the code your app shows now (and check that the phone’s clock is right).',
    noEnrolment: 'No set-up is under way: start it again.',
    backToProfile: 'Back to your profile',
    twoFactorTurnedOn: 'Two-factor sign-in is on. You can switch to live mode now.',
    twoFactorTurnedOff: 'Two-factor sign-in is off; this session is in test mode.',
  },
  es: {
    title: 'Tu perfil',
    accountTitle: 'Tú',
    email: 'Correo electrónico',
    role: 'Rol',
    twoFactor: 'Inicio de sesión en dos pasos',
    on: 'Activado',
    off: 'Desactivado',
    passwordTitle: 'Cambiar tu contraseña',
    passwordIntro: 'Al cambiarla se cierran tus demás sesiones; esta sigue abierta.',
    noPasswordYet:
      'Aún no tienes contraseña (entraste con un enlace de un solo uso): crea una para entrar con tu correo electrónico.',
    currentPassword: 'Contraseña actual',
    newPassword: 'Contraseña nueva',
    passwordHelp:
      'Al menos 12 caracteres. Una frase de varias palabras es fácil de escribir y difícil de adivinar.',
    confirmPassword: 'La misma contraseña nueva otra vez',
    changePassword: 'Cambiar contraseña',
    wrongPassword: 'Esa no es tu contraseña actual; no se cambió nada.',
    passwordTooShort: 'La contraseña nueva necesita al menos 12 caracteres.',
    passwordTooLong: 'La contraseña nueva admite como mucho 256 caracteres.',
    passwordsDiffer: 'Las dos contraseñas nuevas no coinciden.',
    passwordChanged: 'Tu contraseña se cambió. Se cerraron todas tus demás sesiones.',
    twoFactorOnIntro:
      'Activado: después de la contraseña, para entrar se pide el código de 6 dígitos que muestra tu aplicación de autenticación. El modo real lo necesita.',
    twoFactorOffIntro:
      'Desactivado. El modo real lo necesita: después de la contraseña, para entrar se pide entonces el código de 6 dígitos que muestra una aplicación de autenticación en tu teléfono (cualquiera de códigos por tiempo).',
    setUp: 'Configurar el inicio de sesión en dos pasos',
    removeHelp:
      'Tu contraseña, para confirmar. Sin inicio de sesión en dos pasos esta sesión vuelve al modo de prueba y el modo real queda cerrado para ti.',
    removeNeedsPassword:
      'Crea primero una contraseña arriba: desactivar el inicio de sesión en dos pasos la pide.',
    turnOff: 'Desactivar el inicio de sesión en dos pasos',
    alreadyOn:
      'El inicio de sesión en dos pasos ya está activado. Para pasarlo a otra aplicación, desactívalo primero y configúralo de nuevo.',
    enrolTitle: 'Configurar el inicio de sesión en dos pasos',
    scanStep: 'Escanea este código QR con tu aplicación de autenticación.',
    qrLabel: (email) => `Código QR que añade cobro para ${email} a una aplicación de autenticación`,
    keyStep: 'O escribe esta clave en la aplicación (una clave por tiempo):',
    codeStep: 'Escribe el código de 6 dígitos que la aplicación muestra ahora para cobro.',
    code: 'Código',
    codeHelp: 'Un código nuevo cada 30 segundos.',
    turnOn: 'Activar el inicio de sesión en dos pasos',
    wrongCode:
      'Ese código no es correcto. Escribe el que muestra tu aplicación ahora (y comprueba que la hora del teléfono sea correcta).',
    noEnrolment: 'No hay ninguna configuración en curso: empiézala de nuevo.',
    backToProfile: 'Volver a tu perfil',
    twoFactorTurnedOn: 'El inicio de sesión en dos pasos está activado. Ya puedes pasar al modo real.',
    twoFactorTurnedOff:
      'El inicio de sesión en dos pasos está desactivado; esta sesión está en modo de prueba.',
  },
};
