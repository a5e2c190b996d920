import { ImageUp, Pencil, Trash2 } from 'lucide-react';
import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ApiError, errorMessage } from '@/lib/api';
import type { Profile, ProfileUpdate } from '@/lib/api-types/community';
import { toast } from '@/lib/toast';
import { useSubmitGuard } from '@/lib/use-submit-guard';
import { useProfile } from './api/get-profile';
import { useProjects } from './api/get-projects';
import { useRemoveAvatar } from './api/remove-avatar';
import { useUpdateProfile } from './api/update-profile';
import { useUploadAvatar } from './api/upload-avatar';
import { NotificationSettings } from './NotificationSettings';
import { ProjectCard } from './ProjectsTab';
import { Avatar, EmptyState, LoadError, LoadingBlock, TextAreaField, TextField } from './parts';
import { useErrorToast } from './SessionsPanel';

/** The form sends every text field; the server would keep one left out. The directory choice is
 * its own switch, saved at once. */
type ProfileForm = Record<Exclude<keyof ProfileUpdate, 'in_directory'>, string>;
type Field = keyof ProfileForm;

/** The server refuses larger files (docs/api.md); saying so early saves the upload. */
const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

const fields: ReadonlyArray<{ key: Field; label: string; max: number; autoComplete?: string }> = [
  { key: 'full_name', label: 'Full name', max: 120, autoComplete: 'name' },
  { key: 'job_title', label: 'Job title', max: 120, autoComplete: 'organization-title' },
  { key: 'company', label: 'Company', max: 120, autoComplete: 'organization' },
  { key: 'location', label: 'Location', max: 120, autoComplete: 'address-level2' },
  { key: 'phone', label: 'Phone', max: 40, autoComplete: 'tel' },
];

/** Which profile field a server message names ("Full name must be …"), if any. */
function profileErrorField(message: string): Field | null {
  const byPrefix: ReadonlyArray<readonly [string, Field]> = [
    ['Full name', 'full_name'],
    ['Bio', 'bio'],
    ['Phone', 'phone'],
    ['Location', 'location'],
    ['Company', 'company'],
    ['Job title', 'job_title'],
  ];
  return byPrefix.find(([prefix]) => message.startsWith(prefix))?.[1] ?? null;
}

function toInput(profile: Profile): ProfileForm {
  return {
    full_name: profile.full_name,
    bio: profile.bio,
    phone: profile.phone,
    location: profile.location,
    company: profile.company,
    job_title: profile.job_title,
  };
}

/** Profile: view and edit mode, the avatar, the directory choice and the member's projects. */
export function ProfileTab({ isAdmin = false }: { isAdmin?: boolean }) {
  const query = useProfile();
  useErrorToast(query.error, 'Error loading profile');
  const [editing, setEditing] = useState(false);

  if (query.isPending) return <LoadingBlock label="Loading your profile…" rows={2} />;
  if (query.isError) {
    return (
      <LoadError message="Your profile could not be loaded." onRetry={() => void query.refetch()} />
    );
  }
  const profile = query.data;

  return (
    <div className="flex flex-col gap-6">
      <div className="grid gap-6 lg:grid-cols-[18rem_minmax(0,1fr)]">
        <div className="flex flex-col gap-6">
          <AvatarCard profile={profile} />
          <DirectoryChoice profile={profile} />
        </div>
        <Card className="p-4 sm:p-6">
          {editing ? (
            <ProfileForm profile={profile} onDone={() => setEditing(false)} />
          ) : (
            <ProfileView profile={profile} onEdit={() => setEditing(true)} />
          )}
        </Card>
      </div>
      <NotificationSettings />
      <MyProjects isAdmin={isAdmin} />
    </div>
  );
}

function ProfileView({ profile, onEdit }: { profile: Profile; onEdit: () => void }) {
  const rows: ReadonlyArray<readonly [string, string]> = [
    ['Full name', profile.full_name],
    ['E-mail', profile.email],
    ['Job title', profile.job_title],
    ['Company', profile.company],
    ['Location', profile.location],
    ['Phone', profile.phone],
  ];
  return (
    <section aria-labelledby="profile-heading">
      <div className="flex items-center justify-between gap-3">
        <h2 id="profile-heading" className="text-xl font-semibold text-fg">
          Your profile
        </h2>
        <Button variant="outline" size="sm" onClick={onEdit}>
          <Pencil size={14} aria-hidden="true" />
          Edit profile
        </Button>
      </div>
      {profile.name_unverified ? (
        <p
          role="status"
          className="mt-4 rounded-md border border-term-amber/40 bg-term-amber/10 p-3 text-sm text-fg"
        >
          Please check your name: it was set before your e-mail address was confirmed, possibly by
          someone else. Edit your profile and save it to keep or change it.
        </p>
      ) : null}
      <dl className="mt-5 grid gap-4 sm:grid-cols-2">
        {rows.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="font-mono text-xs text-dim">{label}</dt>
            <dd className={value ? 'mt-1 break-words text-fg' : 'mt-1 text-dim'}>
              {value || 'Not set'}
            </dd>
          </div>
        ))}
        <div className="sm:col-span-2">
          <dt className="font-mono text-xs text-dim">Bio</dt>
          <dd
            className={
              profile.bio ? 'mt-1 break-words whitespace-pre-line text-fg' : 'mt-1 text-dim'
            }
          >
            {profile.bio || 'Not set'}
          </dd>
        </div>
      </dl>
    </section>
  );
}

function ProfileForm({ profile, onDone }: { profile: Profile; onDone: () => void }) {
  const [values, setValues] = useState<ProfileForm>(() => toInput(profile));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);

  const save = useUpdateProfile({
    mutationConfig: {
      onSuccess: () => {
        toast.success('Profile updated');
        onDone();
      },
      onError: (error) => {
        const field = error instanceof ApiError ? profileErrorField(error.message) : null;
        if (field) {
          setErrors({ [field]: error.message });
          formRef.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();
        } else {
          toast.error('Error', errorMessage(error));
        }
      },
    },
  });

  const change = (key: Field) => (value: string) => {
    setValues((prev) => ({ ...prev, [key]: value }));
    setErrors((prev) => (prev[key] ? { ...prev, [key]: undefined } : prev));
  };

  const guard = useSubmitGuard();
  const submit = guard.onSubmit(() => {
    return save.mutateAsync(values);
  });

  return (
    <form ref={formRef} noValidate onSubmit={submit} aria-labelledby="profile-edit-heading">
      <h2 id="profile-edit-heading" className="text-xl font-semibold text-fg">
        Edit profile
      </h2>
      <div className="mt-5 grid gap-4 sm:grid-cols-2">
        <TextField
          label="E-mail"
          value={profile.email}
          readOnly
          hint="Your e-mail address cannot be changed here."
          wrapperClassName="sm:col-span-2"
        />
        {fields.map((f) => (
          <TextField
            key={f.key}
            name={f.key}
            label={f.label}
            value={values[f.key]}
            onChange={change(f.key)}
            error={errors[f.key]}
            maxLength={f.max}
            autoComplete={f.autoComplete}
            type={f.key === 'phone' ? 'tel' : 'text'}
          />
        ))}
        <TextAreaField
          name="bio"
          label="Bio"
          rows={4}
          value={values.bio}
          onChange={change('bio')}
          error={errors.bio}
          maxLength={2000}
          wrapperClassName="sm:col-span-2"
        />
      </div>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={guard.pending}>
          {guard.pending ? 'Saving…' : 'Save profile'}
        </Button>
      </div>
    </form>
  );
}

function AvatarCard({ profile }: { profile: Profile }) {
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);

  const upload = useUploadAvatar({
    mutationConfig: {
      onSuccess: () => {
        setError(null);
        toast.success('Avatar updated');
      },
      onError: (e) => setError(errorMessage(e)),
    },
  });
  const remove = useRemoveAvatar({
    mutationConfig: {
      onSuccess: () => {
        setError(null);
        toast.success('Avatar removed');
      },
      onError: (e) => setError(errorMessage(e)),
    },
  });
  const busy = upload.isPending || remove.isPending;

  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      setError('The avatar must be a PNG, JPEG, GIF or WebP image.');
      return;
    }
    if (file.size > AVATAR_MAX_BYTES) {
      setError('The avatar must be at most 5 MB.');
      return;
    }
    upload.mutate(file);
  };

  return (
    <Card className="flex flex-col items-center gap-4 p-4 text-center sm:p-6" aria-busy={busy}>
      <div className="relative">
        <Avatar name={profile.full_name || profile.email} url={profile.avatar_url} size={112} />
        {busy ? (
          <span className="absolute inset-0 flex items-center justify-center rounded-full bg-ink-950/70 font-mono text-xs text-term-green">
            {upload.isPending ? 'Uploading…' : 'Removing…'}
          </span>
        ) : null}
      </div>
      <div>
        <p className="font-semibold break-words text-fg">{profile.full_name || 'Member'}</p>
        <p className="text-xs break-all text-muted">{profile.email}</p>
      </div>
      <input
        ref={input}
        type="file"
        accept="image/png,image/jpeg,image/gif,image/webp"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        onChange={picked}
        data-testid="avatar-input"
      />
      <div className="flex flex-wrap justify-center gap-2">
        <Button variant="outline" size="sm" disabled={busy} onClick={() => input.current?.click()}>
          <ImageUp size={14} aria-hidden="true" />
          {profile.avatar_url ? 'Change avatar' : 'Upload avatar'}
        </Button>
        {profile.avatar_url ? (
          <Button variant="ghost" size="sm" disabled={busy} onClick={() => remove.mutate()}>
            <Trash2 size={14} aria-hidden="true" />
            Remove
          </Button>
        ) : null}
      </div>
      <p className="text-xs text-dim">PNG, JPEG, GIF or WebP, up to 5 MB.</p>
      {error ? (
        <p role="alert" className="text-sm text-term-red">
          {error}
        </p>
      ) : null}
      {busy ? (
        <p role="status" className="sr-only">
          {upload.isPending ? 'Uploading your avatar…' : 'Removing your avatar…'}
        </p>
      ) : null}
    </Card>
  );
}

/** "Show me in the member directory": off until the member turns it on; saved at once. */
function DirectoryChoice({ profile }: { profile: Profile }) {
  // The box follows the click at once; the saved profile (or a failure) settles it.
  const [checked, setChecked] = useState(profile.in_directory);
  useEffect(() => setChecked(profile.in_directory), [profile.in_directory]);
  const save = useUpdateProfile({
    mutationConfig: {
      onSuccess: (saved) =>
        toast.success(
          saved.in_directory ? 'You are in the member directory' : 'You left the member directory',
        ),
      onError: (e) => {
        setChecked(profile.in_directory);
        toast.error('Error', errorMessage(e));
      },
    },
  });
  return (
    <Card className="p-4 sm:p-6">
      <h2 className="font-semibold text-fg">Member directory</h2>
      <label className="mt-3 flex cursor-pointer items-start gap-3 text-sm text-fg">
        <input
          type="checkbox"
          className="mt-0.5 size-5 shrink-0 accent-term-green"
          checked={checked}
          disabled={save.isPending}
          aria-describedby="directory-choice-hint"
          onChange={(event) => {
            setChecked(event.target.checked);
            save.mutate({ in_directory: event.target.checked });
          }}
        />
        Show me in the member directory
      </label>
      <p id="directory-choice-hint" className="mt-2 text-xs text-muted">
        Subscribers and admins then see your avatar, name, job title, company, location, bio, level,
        cohort and projects. Never your e-mail address or phone.
      </p>
    </Card>
  );
}

/** The member's own projects, as the board shows them (hidden ones with the admin's reason). */
function MyProjects({ isAdmin }: { isAdmin: boolean }) {
  const query = useProjects({ author: 'me' });
  return (
    <section aria-labelledby="my-projects-heading" className="lg:col-span-2">
      <h2 id="my-projects-heading" className="text-xl font-semibold text-fg">
        Your projects
      </h2>
      <div className="mt-4">
        {query.isPending ? (
          <LoadingBlock label="Loading your projects…" rows={1} />
        ) : query.isError ? (
          <LoadError
            message="Your projects could not be loaded."
            onRetry={() => void query.refetch()}
          />
        ) : query.data.projects.length === 0 ? (
          <EmptyState title="No projects shared yet">
            {query.data.can_post
              ? 'Share what you build on the Projects tab: each one counts towards your level.'
              : 'Subscribers share what they build on the Projects tab.'}
          </EmptyState>
        ) : (
          <ul className="grid gap-4 lg:grid-cols-2" aria-label="Your projects">
            {query.data.projects.map((p) => (
              <li key={p.id} className="min-w-0">
                <ProjectCard project={p} canPost={query.data.can_post} isAdmin={isAdmin} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
