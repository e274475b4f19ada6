/** The rules of images and uploaded files. */
import { defineRules } from '../core/rule.ts';

export const mediaRules = /* @__PURE__ */ defineRules({
  image: {
    en: '{field} must be a data URI of a JPEG or PNG image (base64) or an http(s) URL of an image (at most 2048 characters, without spaces, quotes or control characters).',
    es: '{field} debe ser un data URI de una imagen JPEG o PNG (base64) o una URL http(s) de una imagen (como máximo 2048 caracteres, sin espacios, comillas ni caracteres de control).',
  },
  image_content: {
    en: '{field} is not a JPEG or PNG image of the type it declares.',
    es: '{field} no es una imagen JPEG o PNG del tipo que declara.',
  },
  image_malformed: {
    en: '{field} is not a whole {format} image: {detail}.',
    es: '{field} no es una imagen {format} completa: {detail}.',
  },
  image_dimensions: {
    en: '{field} is {width} × {height} pixels; images may have at most {megapixels} megapixels and {side} pixels a side.',
    es: '{field} mide {width} × {height} píxeles; las imágenes pueden tener como máximo {megapixels} megapíxeles y {side} píxeles por lado.',
  },
  image_too_large: { en: '{field} is larger than 10 MB.', es: '{field} supera los 10 MB.' },
  file_required: {
    en: '{field} must be a file (multipart/form-data).',
    es: '{field} debe ser un archivo (multipart/form-data).',
  },
  file_too_large: { en: '{field} is larger than {limit}.', es: '{field} supera {limit}.' },
});
