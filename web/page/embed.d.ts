// Types of the script-tag embed's API: embed.js (a classic script) defines
// globalThis.attentionWasm. Import these types from 'attention-wasm/embed'.

/** The widgets, by the names of data-widget and embed.html?widget=. */
export type WidgetName =
  | 'concepts' | 'kv-query' | 'learned-width' | 'vectors' | 'score-functions' | 'softmax-scaling' | 'self-attention'
  | 'attention-map' | 'masking' | 'cross-attention' | 'positional-encoding' | 'multi-head' | 'transformer-block' | 'training'
  | 'language-model' | 'generation' | 'real-model' | 'sentence-similarity' | 'conditional' | 'complexity' | 'speed';

/** Parts of a widget's frame that can be left out. */
export type HideablePart = 'title' | 'intro' | 'quiz' | 'export' | 'embed';

/** A widget's state: its keys as in its URL (docs/embedding.md lists them per widget). */
export type WidgetState = Record<string, string | number | boolean>;

export interface MountOptions {
  widget: WidgetName;
  /** some of the widget's state keys; the others keep their defaults */
  state?: WidgetState;
  /** default: the reader's browser language, English where it is neither */
  lang?: 'en' | 'zh';
  /** default 'auto': the reader's setting */
  theme?: 'light' | 'dark' | 'auto';
  hide?: HideablePart[];
}

export interface WidgetHandle {
  readonly widget: WidgetName;
  readonly element: Element;
  /** every state key of the widget, with its value now */
  getState(): WidgetState;
  /** changes some keys; throws an Error naming a key the widget has not or a bad value */
  setState(partial: WidgetState): void;
  /** removes the widget and stops its workers, timers and observers; a second call does nothing */
  unmount(): void;
}

export interface AttentionWasmEmbed {
  /** the package's version */
  readonly version: string;
  /**
   * Mounts a widget in element (in a shadow root, with its own styles), an
   * element of this page's document. Only the options' own properties are read.
   * Throws an Error naming the problem for an unknown widget, state key, value,
   * language, theme or part, anything but an element of the page, or an element
   * that already holds a widget. The widget lives until unmount(), or until its
   * element, once in the document, is removed from it.
   */
  mount(element: Element, options: MountOptions): WidgetHandle;
}

/** The details of the bubbling events on a widget's element. */
export interface WidgetEventMap {
  'attention-wasm:ready': CustomEvent<{ widget: WidgetName }>;
  'attention-wasm:statechange': CustomEvent<{ widget: WidgetName; state: WidgetState }>;
  'attention-wasm:error': CustomEvent<{ widget: string; message: string }>;
}

/** What embed.html (the iframe) posts to its parent window. `id` is its URL's id parameter. */
export type FrameMessage =
  | { type: 'attention-wasm:height'; id: string; widget: string; height: number }
  | { type: 'attention-wasm:ready'; id: string; widget: string }
  | { type: 'attention-wasm:statechange'; id: string; widget: string; state: WidgetState }
  | { type: 'attention-wasm:error'; id: string; widget: string; message: string };

declare global {
  // eslint-disable-next-line no-var
  var attentionWasm: AttentionWasmEmbed | undefined;
  interface HTMLElementEventMap extends WidgetEventMap {}
}
