// A handful of 20px outline icons, inline so nothing loads from elsewhere.
type IconProps = { className?: string };

const Icon = ({ className = "size-4", d }: IconProps & { d: string }) => (
  <svg className={className} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <path d={d} />
  </svg>
);

export const DatabaseIcon = (p: IconProps) => (
  <Icon {...p} d="M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3Zm0 0v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3" />
);
export const KeyIcon = (p: IconProps) => (
  <Icon {...p} d="M15 7a2 2 0 1 1 0 .01M21 8a6 6 0 0 1-7.7 5.7L11 16H9v2H7v2H3v-3.3l6.3-6.3A6 6 0 1 1 21 8Z" />
);
export const UsersIcon = (p: IconProps) => (
  <Icon {...p} d="M16 19v-1a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v1M9 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm13 9v-1a4 4 0 0 0-3-3.9M16 4.1a3 3 0 0 1 0 5.8" />
);
export const UserPlusIcon = (p: IconProps) => (
  <Icon {...p} d="M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm10-3v6m3-3h-6" />
);
export const ShareIcon = (p: IconProps) => (
  <Icon {...p} d="M18 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM6 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm12 7a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM8.6 13.5l6.8 4M15.4 6.5l-6.8 4" />
);
export const GaugeIcon = (p: IconProps) => <Icon {...p} d="M12 14l4-4M3.3 17a10 10 0 1 1 17.4 0" />;
export const LayersIcon = (p: IconProps) => <Icon {...p} d="M12 3l9 5-9 5-9-5 9-5Zm-9 9l9 5 9-5M3 16l9 5 9-5" />;
export const PlusIcon = (p: IconProps) => <Icon {...p} d="M12 5v14M5 12h14" />;
export const LogoutIcon = (p: IconProps) => <Icon {...p} d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" />;
export const ActivityIcon = (p: IconProps) => <Icon {...p} d="M22 12h-4l-3 9L9 3l-3 9H2" />;
export const TableIcon = (p: IconProps) => <Icon {...p} d="M3 5h18v14H3zM3 10h18M9 10v9" />;

export const Logo = () => (
  <span className="flex items-center gap-2 text-base font-semibold tracking-tight text-slate-900">
    <span className="grid size-7 place-items-center rounded-md bg-indigo-600 text-sm font-bold text-white">T</span>
    Tabula
  </span>
);
export const SparklesIcon = (p: IconProps) => (
  <Icon {...p} d="M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9L12 3Zm7 12l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8L19 15Z" />
);
export const MailIcon = (p: IconProps) => <Icon {...p} d="M3 6h18v12H3zM3 6l9 7 9-7" />;
export const UserIcon = (p: IconProps) => <Icon {...p} d="M20 21v-2a4 4 0 0 0-4-4H8a4 4 0 0 0-4 4v2M12 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8Z" />;
export const MenuIcon = (p: IconProps) => <Icon {...p} d="M4 6h16M4 12h16M4 18h16" />;
export const CloseIcon = (p: IconProps) => <Icon {...p} d="M6 6l12 12M18 6L6 18" />;
