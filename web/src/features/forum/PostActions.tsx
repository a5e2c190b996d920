import { Flag, Flame, Pencil, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { useReact } from './api/community';

export interface PostActionsProps {
  kind: 'thread' | 'reply';
  id: string;
  reactions: number;
  reacted: boolean;
  /** Whether the 🔥 may be pressed: not on one's own post, nor on a hidden or closed one. */
  canReact: boolean;
  /** The author edits their own post; anyone else may report it. */
  mine: boolean;
  /** The author and admins may delete. */
  canDelete: boolean;
  onEdit: () => void;
  onReport: () => void;
  onDelete: () => void;
  /** Actions of this kind of post alone, right after the 🔥 (mute, accept). */
  beside?: ReactNode;
  /** Admins' actions, at the end (pin, hide, save to the knowledge base). */
  children?: ReactNode;
}

/**
 * The row of actions under a thread or a reply: 🔥, edit or report, delete, and what the post adds.
 * One component, so a thread and its replies behave and sound the same.
 */
export function PostActions({
  kind,
  id,
  reactions,
  reacted,
  canReact,
  mine,
  canDelete,
  onEdit,
  onReport,
  onDelete,
  beside,
  children,
}: PostActionsProps) {
  const react = useReact();
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        size="sm"
        variant={reacted ? 'primary' : 'outline'}
        aria-pressed={reacted}
        disabled={!canReact || react.isPending}
        onClick={() =>
          react.mutate(
            { kind, id, on: !reacted },
            { onError: (error) => toast.error('Error', errorMessage(error)) },
          )
        }
      >
        <Flame size={16} aria-hidden="true" />
        {/* The name starts with the visible count (axe label-content-name-mismatch): "3 fire
            reactions", never "Fire: 3". */}
        {reactions}
        <span className="sr-only">{` fire ${reactions === 1 ? 'reaction' : 'reactions'}${reacted ? ', yours included' : ''}`}</span>
      </Button>
      {beside}
      {mine ? (
        <Button size="sm" variant="ghost" onClick={onEdit}>
          <Pencil size={16} aria-hidden="true" />
          Edit
        </Button>
      ) : (
        <Button size="sm" variant="ghost" onClick={onReport}>
          <Flag size={16} aria-hidden="true" />
          Report
        </Button>
      )}
      {canDelete ? (
        <Button size="sm" variant="ghost" onClick={onDelete}>
          <Trash2 size={16} aria-hidden="true" />
          Delete
        </Button>
      ) : null}
      {children}
    </div>
  );
}
