// Types of the pretrained sentence encoder (loadEncoder in attention.d.mts):
// re-exported from there.
import type { Handle, Matrix } from './attention.mjs';

export interface EncoderInfo {
  /** pieces in the tokenizer's vocabulary */
  vocab: number;
  /** attention heads per layer */
  heads: number;
  /** the longest input in pieces; longer sentences are cut (and say so) */
  maxPieces: number;
  /** the width attention works at in each layer (heads split it evenly) */
  layerWidths: number[];
  /** length of the sentence embedding */
  embeddingWidth: number;
}

export interface Encoding {
  /** vocabulary id of each piece (0: unknown characters) */
  ids: Int32Array;
  /** the text each piece covers; ▁ (U+2581) marks a space, so a piece starting with ▁ starts a word */
  pieces: string[];
  /** whitespace-separated words: the pieces from one ▁ to the next, ▁ removed */
  words: string[];
  /** (pieces) the word each piece belongs to */
  wordOfPiece: Int32Array;
  /** the sentence had more than maxPieces pieces; only the first maxPieces were encoded */
  truncated: boolean;
  /** [layer][head] (pieces, pieces) attention weights; rows sum to 1 */
  attention: Matrix[][];
  /**
   * [layer][head] (words, words): the piece maps merged to words, summing over
   * the key word's pieces and averaging over the query word's pieces; rows sum to 1
   */
  wordAttention: Matrix[][];
  /** the sentence embedding, unit length (compare two with a dot product) */
  embedding: Float32Array;
}

export interface Encoder extends Handle<EncoderInfo> {
  /** Encodes one sentence (NFKC-normalised first). Throws on empty text or an encoder already deleted. */
  encode(text: string): Encoding;
  /** The sentence embedding alone (unit length), without computing or copying any map: faster where only similarity is needed. */
  embed(text: string): Float32Array;
}
