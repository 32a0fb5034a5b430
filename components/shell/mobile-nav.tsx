"use client";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { CloseIcon, Logo, MenuIcon } from "../icons";
import { useModal } from "../ui/use-modal";
import { SidebarContent } from "./sidebar";

/**
 * Below the md breakpoint: a top bar with a menu button that opens the sidebar as a drawer (a modal <dialog>:
 * focus stays inside, Escape and the backdrop close it, focus returns to the menu button). Following a link
 * closes it.
 */
export const MobileNav = () => {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const drawer = useModal(open, button);
  const pathname = usePathname();
  const query = useSearchParams().toString();
  useEffect(() => setOpen(false), [pathname, query]);
  return (
    <div className="sticky top-0 z-20 flex items-center justify-between border-b border-slate-200 bg-white px-3 py-2 md:hidden">
      <button
        ref={button}
        type="button"
        aria-label="Open navigation"
        aria-expanded={open}
        aria-controls="mobile-drawer"
        onClick={() => setOpen(true)}
        className="rounded-md p-2 text-slate-700 hover:bg-slate-100"
      >
        <MenuIcon className="size-5" />
      </button>
      <Link href="/databases" aria-label="Tabula home">
        <Logo />
      </Link>
      <span className="w-9" />
      <dialog
        ref={drawer}
        id="mobile-drawer"
        aria-label="Navigation"
        onClose={() => setOpen(false)}
        onCancel={(e) => {
          e.preventDefault();
          setOpen(false);
        }}
        onClick={(e) => e.target === drawer.current && setOpen(false)}
        className="m-0 h-full max-h-none w-72 max-w-[85vw] bg-white p-0 text-slate-900 shadow-2xl backdrop:bg-slate-950/50"
      >
        {open && (
          <div className="relative flex h-full flex-col">
            <button
              type="button"
              aria-label="Close navigation"
              onClick={() => setOpen(false)}
              className="absolute top-3 right-3 rounded-md p-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
            >
              <CloseIcon className="size-5" />
            </button>
            <SidebarContent />
          </div>
        )}
      </dialog>
    </div>
  );
};
