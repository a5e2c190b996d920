import {
  Activity,
  Boxes,
  Brain,
  Cpu,
  Database,
  FolderGit2,
  GitBranch,
  Infinity as InfinityIcon,
  ListChecks,
  type LucideIcon,
  type LucideProps,
  Network,
  Shield,
  ShieldCheck,
  Sigma,
  TrendingUp,
  Wallet,
  Workflow,
  Zap,
} from 'lucide-react';

/**
 * The lucide icons a project card can name in projects.json (kebab case). Only these are bundled;
 * an unknown name falls back to a repository icon rather than breaking the card.
 */
const icons: Readonly<Record<string, LucideIcon>> = {
  activity: Activity,
  boxes: Boxes,
  brain: Brain,
  cpu: Cpu,
  database: Database,
  'git-branch': GitBranch,
  infinity: InfinityIcon,
  'list-checks': ListChecks,
  network: Network,
  shield: Shield,
  'shield-check': ShieldCheck,
  sigma: Sigma,
  'trending-up': TrendingUp,
  wallet: Wallet,
  workflow: Workflow,
  zap: Zap,
};

export interface ProjectIconProps extends LucideProps {
  name: string;
}

/** The icon a content file names for a project, decorative (aria-hidden). */
export function ProjectIcon({ name, ...rest }: ProjectIconProps) {
  const Icon = icons[name] ?? FolderGit2;
  return <Icon aria-hidden="true" {...rest} />;
}
