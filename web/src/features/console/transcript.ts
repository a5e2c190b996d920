import type { Block } from './basics';

/** One line of the transcript: what was typed, or a block of output. */
export interface Line extends Block {
  id: number;
  kind: 'input' | 'output';
  /** An AI answer still arriving. */
  streaming: boolean;
}
