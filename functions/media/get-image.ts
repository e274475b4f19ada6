/**
 * GET /media/{name}: an image cobro stored (a plan's `image`), without credentials so it loads in
 * a browser. Names are content hashes, so an answer never changes and may be cached for a year.
 */
import { NotFound } from '../../shared/core/errors.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { typeOfMediaName } from '../../shared/media/images.ts';
import { s3MediaStore } from '../../shared/media/store.ts';

const media = s3MediaStore();

export const handler = publicEndpoint(
  async ({ params }) => {
    const name = params.name ?? '';
    const type = typeOfMediaName(name);
    if (!type) throw new NotFound();
    const object = await media.get(name);
    if (!object) throw new NotFound();
    return {
      status: 200,
      bytes: object.bytes,
      headers: {
        'Content-Type': type,
        'Cache-Control': 'public, max-age=31536000, immutable',
        'Content-Security-Policy': "default-src 'none'",
        'X-Content-Type-Options': 'nosniff',
      },
    };
  },
  { parseBody: false },
);
