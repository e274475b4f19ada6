/** The media bucket: images cobro stores, read back by the public media route. */
import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { envNames, requireEnv } from '../core/config.ts';
import type { ImageInput } from './images.ts';

export interface MediaObject {
  bytes: Uint8Array;
  contentType: string;
}

export interface MediaStore {
  put(name: string, object: MediaObject): Promise<void>;
  /** The object, or undefined when there is none of that name. */
  get(name: string): Promise<MediaObject | undefined>;
}

const folder = 'images/';

/** The stage's media bucket; the client is made once per process. */
export function s3MediaStore(): MediaStore {
  const client = new S3Client({});
  const bucket = requireEnv(envNames.mediaBucket);
  return {
    async put(name, object) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: folder + name,
          Body: object.bytes,
          ContentType: object.contentType,
        }),
      );
    },
    async get(name) {
      try {
        const result = await client.send(new GetObjectCommand({ Bucket: bucket, Key: folder + name }));
        const bytes = await result.Body?.transformToByteArray();
        if (!bytes) return undefined;
        return { bytes, contentType: result.ContentType ?? 'application/octet-stream' };
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
  };
}

/** Puts an uploaded image in the bucket (an outside URL needs nothing). */
export async function saveImage(store: MediaStore, input: ImageInput): Promise<void> {
  if (input.kind === 'data') await store.put(input.name, { bytes: input.bytes, contentType: input.type });
}
