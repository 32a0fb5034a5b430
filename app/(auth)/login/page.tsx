import { LoginForm } from "@/components/auth/login-form";

export const metadata = { title: "Sign in · Tabula" };

export default LoginForm;
