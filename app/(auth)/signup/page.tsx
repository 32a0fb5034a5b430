import { SignupForm } from "@/components/auth/signup-form";

export const metadata = { title: "Sign up · Tabula" };

export default SignupForm;
