/** The default theme, with the site's few styles of its own (style.css). */
import DefaultTheme from 'vitepress/theme';
import './style.css';

export default DefaultTheme;
