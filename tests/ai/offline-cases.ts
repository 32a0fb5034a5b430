// The offline planner's test prompts: 20 different prompts that together reach every domain, each with the
// domain and the tables it should plan (shared by the planner's unit tests and the offline build suite).
export const SHOP = ["customers", "products", "orders", "order_items"];
const BLOG = ["authors", "posts", "comments"];
const CRM = ["companies", "contacts", "deals"];
const TASKS = ["team_members", "projects", "tasks"];
const BOOKINGS = ["services", "staff", "clients", "appointments"];
const INVENTORY = ["warehouses", "suppliers", "items", "stock_levels"];
const SCHOOL = ["teachers", "students", "courses", "enrollments"];
const EVENTS = ["venues", "events", "attendees", "tickets"];
const RECIPES = ["recipes", "ingredients", "recipe_ingredients"];
const HELPDESK = ["customers", "agents", "tickets", "ticket_replies"];
const LIBRARY = ["authors", "books", "members", "loans"];
const FITNESS = ["members", "trainers", "classes", "class_bookings"];
const REAL_ESTATE = ["agents", "properties", "viewings"];

export const CASES: [prompt: string, domain: string, tables: string[]][] = [
  ["I need a backend for my bakery's online orders", "shop", SHOP],
  ["A shop for handmade soap", "shop", SHOP],
  ["e-commerce store selling vintage clothes", "shop", SHOP],
  ["track support tickets for our SaaS", "helpdesk", HELPDESK],
  ["Helpdesk for customer complaints", "helpdesk", HELPDESK],
  ["a school with students, courses and grades", "school", SCHOOL],
  ["Online courses platform for teachers and their pupils", "school", SCHOOL],
  ["Personal blog with posts, comments and authors", "blog", BLOG],
  ["Simple CRM to follow up leads and deals for a consulting firm", "crm", CRM],
  ["Project management tool: tasks, deadlines and who is assigned", "tasks", TASKS],
  ["to-do list app for my team", "tasks", TASKS],
  ["Appointment booking for a hair salon", "bookings", BOOKINGS],
  ["Dentist appointments for patients", "bookings", BOOKINGS],
  ["Warehouse inventory with suppliers and stock levels", "inventory", INVENTORY],
  ["Sell tickets for concerts at our venue", "events", EVENTS],
  ["Conference registration and attendee check-in", "events", EVENTS],
  ["A recipe collection with ingredients", "recipes", RECIPES],
  ["Lending library: books, members and loans", "library", LIBRARY],
  ["Gym membership and yoga class schedule", "fitness", FITNESS],
  ["Real estate listings for an agency with property viewings", "real_estate", REAL_ESTATE],
];
