// The images a tool card shows (a browser screenshot, an image read_file returned): written to the image
// store when the card is reported — before the tool's result reaches the journal — so the card's
// references resolve as soon as the view asks. The card keeps references only, never bytes.
import type { ImageRef } from '../../protocol';
import type { ImageStorage } from '../ports';
import type { ToolResult } from '../tools/types';
import { storeImagePart } from '../tools/util/images';

/** At most this many images on one card. */
const MAX_CARD_IMAGES = 8;

export function cardImages(result: ToolResult, store: ImageStorage | undefined): ImageRef[] {
  if (!store) return [];
  const blocks =
    result.images ?? (typeof result.forModel === 'string' ? [] : result.forModel.filter((b) => b.type === 'image'));
  const refs: ImageRef[] = [];
  for (const block of blocks.slice(0, MAX_CARD_IMAGES)) {
    // Not written (a full disk): the card goes without it; the model still gets the image.
    const ref = block.type === 'image' ? storeImagePart(store, block) : undefined;
    if (ref) refs.push(ref);
  }
  return refs;
}
