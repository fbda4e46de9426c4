import sharp from 'sharp';
import { errors } from '../../errors';

/** Image processing for avatars and organization images, with sharp (first frame, EXIF orientation). */
const undecodable = () => errors.badRequest('Could not decode image; did you upload an image file?');

// Bounds the memory one decode may take, whatever the file claims.
const MAX_INPUT_PIXELS = 50_000_000;

/** A `side`-pixel square PNG, cropped around the centre. */
export async function squarePng(image: Buffer, side: number): Promise<Buffer> {
  try {
    return await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS }).rotate().resize(side, side, { fit: 'cover' }).png().toBuffer();
  } catch {
    throw undecodable();
  }
}

/** A PNG fitting in width × height, never enlarged. */
export async function fittedPng(image: Buffer, width: number, height: number): Promise<Buffer> {
  try {
    return await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(width, height, { fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
  } catch {
    throw undecodable();
  }
}
